// GoogleTest printers for the result rows, so that a failed comparison shows
// {second, count} and {second, app, count} instead of raw bytes.
#pragma once

#include <ostream>

#include "logagg/result.h"

namespace logagg {

inline void PrintTo(const SecondCount& c, std::ostream* os) { *os << '{' << c.second << ", " << c.count << '}'; }

inline void PrintTo(const AppCount& c, std::ostream* os) {
  *os << '{' << c.second << ", " << c.app << ", " << c.count << '}';
}

}  // namespace logagg
