// `logagg --list-inputs`: the input files a run over the same paths and
// --include/--exclude would read, without reading them; as text, one a line,
// or with --format json as a document for programs (apps/logagg-dask plans
// its pieces from it, so it never re-implements logagg's folder walk, name
// escaping, size parsing or compression detection).
#pragma once

#include <CLI/CLI.hpp>

#include "cli.h"

namespace logagg::cli {

// Adds --piece-size SIZE to the main command, filling config.piece_size (a
// size as `logagg split --max-size` reads it, size_flag.h).
void add_piece_size_option(CLI::App& app, Config& config);

// After parsing: throws CLI::ValidationError if --list-inputs is asked for a
// format it does not print (csv, html), or --piece-size is given without
// --list-inputs --format json.
void check_list_inputs_flags(const CLI::App& app, const Config& config);

// Prints on stdout the inputs a run would read, in the order it reads them:
// the engine's expand_paths() of config.paths with the include and exclude
// globs (a folder's regular files sorted by path, hidden entries skipped;
// files named as given; "-" for standard input). Then, on stderr,
// "logagg: PATH: reason" for each path that cannot be read, as a run prints
// it. Returns 0, or 1 if a path cannot be read (the others are still listed)
// or the list cannot be written; a reader that goes away is not an error.
// SIGPIPE must be ignored by the caller.
//
// As text (the default): one path a line, as terminal_text shows it
// (logagg/terminal_text.h), so each is one line whatever bytes it holds, and
// reads back unambiguously: \\, \n, \r, \t, \xHH for a byte, \uHHHH for a
// code point.
//
// With --format json: one JSON document (docs/GUIDE.md, "Paths and
// folders"), {"piece_size": N (if given), "inputs": [...]}, an object a line
// per input with
//   "path"         the path exactly, if it is valid UTF-8; else, instead,
//   "path_hex"     its bytes in lowercase hex (JSON strings hold only text);
//   "shown"        the path as logagg's messages and the text list show it;
//   "bytes"        a regular file's size; null for anything else ("-", a
//                  FIFO, a device), which is neither opened nor read;
//   "compression"  "plain", "gzip" or "zstd" by a regular file's first
//                  bytes; null if it is not one or cannot be opened here;
//   "ranges"       with --piece-size SIZE, for a regular file larger than
//                  SIZE not known to be compressed: [START, END] byte ranges
//                  for --range that cut it into the fewest equal pieces of at
//                  most SIZE bytes, the last one [START, null] (to the end).
int list_inputs(const Config& config);

}  // namespace logagg::cli
