/** Patterns of plain text the manifest schema uses in more than one file. */

/**
 * One line of text with nothing a terminal or the bidi algorithm acts on: no line break (a `run` command
 * with one is two commands to the shell, and the panel shows only the first), no control character, no
 * bidi or invisible format character (which would show the learner a command other than the one that runs).
 */
export const SINGLE_LINE_PATTERN =
  '^[^\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff]+$';
