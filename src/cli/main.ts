#!/usr/bin/env node
/** Entry point of `cdnctl`. Not implemented yet (issue 4): exits non-zero instead of pretending. */
process.stderr.write('cdnctl: not implemented yet (see issue 4)\n');
process.exit(2);
