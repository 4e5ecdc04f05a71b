// Generators of time texts for the tests of the time formats
// (engine/src/parse/time_format.h), each knowing the instant it wrote:
// epoch numbers next to second boundaries in every written form, local times
// written in a pattern by date::format, and local times around a zone's
// transitions. Shared by time_format_differential_test (against the truth
// and time_reference.h) and differential_test (whole lines in each format).
//
// Deterministic: the same generator state gives the same texts.
#pragma once

#include <date/date.h>
#include <date/tz.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace reference {

inline constexpr int64_t kFirstSecond = -62167219200;  // 0000-01-01T00:00:00Z
inline constexpr int64_t kLastSecond = 253402300799;   // 9999-12-31T23:59:59Z

// A uniform integer in [lo, hi].
int64_t uniform(std::mt19937_64& rng, int64_t lo, int64_t hi);

// `n` random decimal digits.
std::string random_digits(std::mt19937_64& rng, size_t n);

// ---------------------------------------------------------------------------
// unix, unix-ms, unix-us, unix-ns

// A number and the second it floors to (nullopt outside the years 0000..9999).
struct EpochCase {
  std::string text;
  std::optional<int64_t> second;
};

// Writes sign, integer digits and fraction digits as an RFC 8259 number in
// one of several forms, moving the decimal point with an exponent.
std::string write_number(std::mt19937_64& rng, bool negative, const std::string& int_part,
                         const std::string& fraction);

// A number next to a second boundary: a random `whole` (any second, the year
// limits, 1700000000 or 0..3, each +-2) and then as epoch_near.
EpochCase near_boundary(std::mt19937_64& rng, int unit_digits);

// `whole` seconds and units (of 10^-unit_digits s) into the next second of 0,
// 1, all but one or any, then a fraction of a unit of 0s, 9s, a last 1 or
// noise (up to 30 digits); negative as `negative` says, else at random.
EpochCase epoch_near(std::mt19937_64& rng, int unit_digits, int64_t whole,
                     std::optional<bool> negative = std::nullopt);

// ---------------------------------------------------------------------------
// clf and patterns

// A pattern's pieces: a directive, or literal bytes (directive 0).
struct Piece {
  char directive;
  std::string literal;
};

std::vector<Piece> pieces(std::string_view pattern);

bool has(const std::vector<Piece>& ps, char directive);

// An offset for %z: "Z" (for 0, sometimes, unless clf), "+hhmm" or "+hh:mm"
// (never for clf).
std::string offset_text(std::mt19937_64& rng, int64_t offset_minutes, bool clf);

// `local` written in `ps`, with `offset_minutes` for %z; %f random digits.
std::string write_time(std::mt19937_64& rng, const std::vector<Piece>& ps, date::local_seconds local,
                       int64_t offset_minutes, bool clf);

// `local` without the time fields the pattern leaves out.
date::local_seconds truncated(const std::vector<Piece>& ps, date::local_seconds local);

// A local time in the years 0000..9999, mostly in this era.
date::local_seconds random_local(std::mt19937_64& rng);

// A zone's transitions (UTC) from 1900 to 2037, with the offsets before and after.
struct Transition {
  int64_t at, before, after;
};
std::vector<Transition> transitions(const date::time_zone* zone);

// A local time near one of `ts`: within two hours of its wall-clock times
// before and after, or inside its gap or overlap.
date::local_seconds near_transition(std::mt19937_64& rng, const std::vector<Transition>& ts);

// The earliest UTC second showing `local` in `zone`, or nullopt in a gap.
std::optional<int64_t> in_zone(const date::time_zone* zone, date::local_seconds local);

}  // namespace reference
