#!/usr/bin/env node
/** Entry point of `cdn-sim`. Not implemented yet (issue 3): exits non-zero instead of pretending. */
process.stderr.write('cdn-sim: not implemented yet (see issue 3)\n');
process.exit(2);
