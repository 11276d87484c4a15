#!/usr/bin/env node
/** Entry point of `cdn-operator`. Not implemented yet (issue 5): exits non-zero instead of pretending. */
process.stderr.write('cdn-operator: not implemented yet (see issue 5)\n');
process.exit(2);
