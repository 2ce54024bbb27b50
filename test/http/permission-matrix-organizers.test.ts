import { ORGANIZERS, describeItemMatrix } from '../helpers/permission-matrix.js';

// Issue 23, deliverable 8: the role × route × object permission matrix of organizers (API.md §4, §13, §17,
// §18): every role, PATCH (and POST/PUT on a sample), DELETE and DELETE force=true by id and by
// slug, on own and others' organizers of every status. Oracle and runner: test/helpers/permission-matrix.ts.

await describeItemMatrix(ORGANIZERS);
