// The differential checks behind the libFuzzer targets, shared with the replay
// test (tests/property/fuzz_regression_test.cc) so that every seed and every finding is
// re-checked in the ordinary g++ builds too.
//
// Each check takes one input, runs it through the engine and through the
// oracles, and returns an empty string when they all agree, else a readable
// description of the first disagreement (with the input as an escaped literal).
// Checks are deterministic: the same input always runs the same comparisons.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace logagg_fuzz {

// The input as a timestamp:
// - logagg::parse_rfc3339 and reference::rfc3339_second agree on valid or not
//   and on the second;
// - a valid timestamp without a leap second gets the same second from
//   date::parse (asked in its own dialect: 'T', a numeric offset, the fraction
//   cut to microseconds, none of which changes the floored second);
// - a valid second formats (format_utc_second) as date::format prints it
//   (years >= 0) and, within years 0..9999, parses back to itself.
std::string check_rfc3339(std::string_view input);

// The input as a log file, read with the fields its first byte chooses: 0x01
// ("/request/host", "/ts"), 0x02 ("/r/app", "/r/t"), 0x03 ("/a~1b/0",
// "/t~0") or 0x04 ("svc.name", "/svc/name/1"), and the log is the rest of the
// input. A first byte 0x05 draws the options from the next three bytes, each
// taken modulo its list in checks.cc: the fields (the defaults or one of the
// four pairs), the time format (rfc3339, unix, unix-ms, unix-us, unix-ns,
// clf, "%Y-%m-%d %H:%M:%S" in Europe/Berlin, "%d/%b/%Y:%H:%M:%S.%f%z") and
// the app pattern (the default, "[a-z0-9.-]+", "[a-z]+(-[a-z]+)*@[a-z]+",
// ".+", or the next byte's count of bytes after it: an input whose pattern
// does not compile, a usage error, is skipped); the log is the rest. Any
// other input is a log read whole with the defaults, so inputs written before
// the choices existed are checked as they always were. Every option goes
// through logagg::LineRules::of, as the command line's do. Then:
// - every line (reference::split_lines) gets the same verdict from
//   LineParser::classify, reading in place as the engine reads a mapped file,
//   and from BlockParser::classify_lines over the whole log in blocks of 1 to
//   1024 bytes (chosen by the hash, so block ends fall anywhere and a line
//   stage 1 refuses makes it restart), as from reference::classify, and a
//   counted line the same app id;
// - logagg::aggregate_buffer gets the counts, the summary by reason and the
//   first reject samples the reference gets, for 1, 2 and 3 threads and
//   segment sizes from 1 byte up (so all engine runs also equal each other),
//   and in the runs with by_app the same counts per second and app;
// - the same holds when the input is read as a stream (through a pipe);
// - all of the above both without a practical line limit and with a limit
//   one below, at or one above the length of one of the lines.
// - the one-thread by-app run, written out (output_checks.h): its csv reads
//   back (RFC 4180) into exactly its rows, its json through parse_partial
//   into the same apps and counts, and its table, --stats and --show-rejects
//   texts are valid UTF-8 with no raw control but LF, no DEL, C1 or bidi
//   control, and its html page (in builds with it) has its own three scripts
//   and two style sheets and no element an id could smuggle in.
// - a log that starts with a gzip or zstd magic number is also read through
//   logagg::open_byte_source from a file, decompressed by the reader's
//   thread and ahead of it by a thread of its own (read_ahead_in_thread, with
//   buffers and reads of sizes the hash chooses): both give the same bytes,
//   error and byte count, corrupt data too (what a decoder hands out before
//   a fault must not depend on the reads); and gzip that zlib (the oracle; the build's decoder
//   may be ISA-L's) decodes cleanly, members one after another, decodes to
//   zlib's bytes without an error.
// Segment sizes, the thread count of each run and the tight limit are derived
// from a hash of the whole input, so each input gets its own reproducible cuts.
std::string check_engine(std::string_view input);

// The input as the lines `logagg detect` sampled (split at LF): detect()
// returns, with no more lines or JSON objects than the input has, no
// suggestion counting more lines than were sampled and none for lines it
// says are not JSON, every flag read back from its shell quoting as it is,
// and every suggested --app-pattern compiling.
std::string check_detect(std::string_view input);

using Check = std::string (*)(std::string_view input);

// The body of a libFuzzer entry point: runs `check` on the input, and on a
// disagreement prints the description to stderr and aborts (a finding).
int run_or_abort(Check check, const uint8_t* data, size_t size);

}  // namespace logagg_fuzz
