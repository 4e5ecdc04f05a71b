// The names detect gives the fields it finds (logagg/detect.h), for
// fields.cc, which finds them, and detect.cc, which suggests them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace logagg {

// A field name as --app-field takes it for the path `steps` from the line's
// object: a plain key (not starting with '/') for one step, else a JSON Pointer.
std::string field_name(const std::vector<std::string_view>& steps);

}  // namespace logagg
