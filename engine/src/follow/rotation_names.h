// Which names in a followed file's folder are that file's rotations
// (`logagg --follow access.log` reads them too, follow/discovery.h): the
// names logrotate and its kin give a log when they move it aside.
#pragma once

#include <string_view>

namespace logagg {

// Whether `name` (a name in a folder, without the folder) is a rotation of
// the file named `followed` in the same folder: `followed`, a separator
// (`.`, `-` or `_`) and a stamp (digits, possibly in groups split by `.`,
// `-` or `_`: `access.log.1`, `access.log-20261202`,
// `access.log-2026-12-02`), or the stamp before the extension (logrotate's
// `extension`: `access.1.log`, `access-20261202.log`); then, or on
// `followed` itself, optionally `.gz` or `.zst` (`access.log.2.gz`). Other
// compressions (`.bz2`, `.xz`) are not: logagg cannot read them.
bool is_rotation_name(std::string_view name, std::string_view followed);

}  // namespace logagg
