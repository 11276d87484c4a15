/**
 * Custom page HTML that is easy to write as YAML wrongly: YAML 1.1 booleans on their own lines,
 * `key: value` lines, quotes and `#`, leading and trailing spaces, tabs, document markers,
 * non-ASCII, CRLF line ends, and the characters kubectl's go-yaml reads as line breaks (NEL, LS,
 * PS) or refuses raw (DEL, C1 controls). A page is compared by SHA-256, so each must come back
 * from an export byte for byte (unit tests: the YAML 1.1 reader; e2e: kubectl itself).
 */

/** Page type -> HTML, one variant per platform page type. */
export const TRICKY_PAGES: Readonly<Record<string, string>> = {
  // Line feeds only: written as a literal block.
  block: [
    '  <!-- leading spaces: an indentation indicator -->',
    '<html lang="de"><head><meta charset="utf-8"><title>Zugriff verweigert – 拒绝</title></head>',
    '<body>',
    'yes',
    'no: on',
    'Off',
    '~',
    '012',
    '<p class=\'x\' data-a="b: c"># not a comment</p>   ',
    '- not a list',
    '---',
    '...',
    '%YAML 1.1',
    '\t<p>\ttabbed</p>',
    '<p>emoji 🚫 and non-breaking\u00a0space</p>',
    '</body></html>',
    '',
    '',
  ].join('\n'),
  // CRLF and the characters go-yaml would misread raw: written double-quoted, escaped.
  challenge: [
    '<html>',
    '<body>',
    '  <h1>Are you human?</h1> ',
    'yes: "no"',
    'line\u2028separator and paragraph\u2029separator',
    'next\u0085line, delete\u007f, c1\u0090 control',
    '\ufeffbyte order mark inside',
    '</body>',
    '</html>',
  ].join('\r\n'),
};
