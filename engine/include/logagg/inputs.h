// The inputs of a run as the command line names them: paths expanded into
// files (folders walked, globs applied), and what a listing tells about each
// without reading its data (`logagg --list-inputs`). Thread-safe; errors are
// InputError entries or nullopt, never thrown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result_parts.h"  // InputError

namespace logagg {

// Expands command-line paths into the inputs to read, in order: a file as is,
// a folder as every regular file below it (recursively, sorted by path,
// skipping entries whose name starts with '.'; symlinks to files are followed,
// symlinks to folders are not) whose path relative to the folder passes
// `include` and `exclude` (see Options), "-" as standard input. Paths that do
// not exist, folders that cannot be listed and, inside folders, entries that
// cannot be read (dangling symlinks; FIFOs, sockets and devices, which are
// skipped) are appended to `errors`.
std::vector<std::string> expand_paths(const std::vector<std::string>& paths, std::vector<InputError>& errors,
                                      const std::vector<std::string>& include = {},
                                      const std::vector<std::string>& exclude = {});

// Whether expand_paths takes the file at `relative` (its path relative to a
// followed folder): no name in it starts with '.', and it passes `include`
// and `exclude`.
bool selected_in_folder(const std::string& relative, const std::vector<std::string>& include,
                        const std::vector<std::string>& exclude);

// Where a stream's bytes come from: a file descriptor read as is, or a gzip
// or zstd stream decompressed on the fly. Compression is recognised by the
// first bytes (the magic numbers), never by the file name.
enum class Compression { kNone, kGzip, kZstd };

// The compression that a stream starting with `head` (its first 4 bytes or
// fewer, if it is shorter) uses.
Compression detect_compression(std::string_view head) noexcept;

// "gzip", "zstd" or "plain", for messages.
std::string_view compression_name(Compression c) noexcept;

// What a listing of the inputs tells about one without reading its data
// (`logagg --list-inputs --format json`): a regular file's size and, from its
// first bytes, its compression. nullopt for anything else: "-" (standard
// input), a FIFO, a socket, a device, a folder, a path that is gone. Only a
// regular file is opened (never for more than its first 4 bytes), since
// opening or reading anything else could block or have effects.
struct FileFacts {
  uint64_t bytes = 0;
  std::optional<Compression> compression;  // nullopt: it cannot be opened here
};
std::optional<FileFacts> regular_file_facts(const std::string& path);

}  // namespace logagg
