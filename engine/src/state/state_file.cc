// Reading, writing and locking the state file (see state_file.h).
#include "state/state_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <simdjson.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <thread>

#include "logagg/json_text.h"
#include "logagg/state.h"
#include "state/synced_write.h"

namespace logagg {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) { throw StateError(path, why); }

void append_field(std::string& out, const char* key, uint64_t value) {
  out += ", \"";
  out += key;
  out += "\": ";
  out += std::to_string(value);
}

void append_hex(std::string& out, const char* key, uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"%016" PRIx64 "\"", value);
  out += ", \"";
  out += key;
  out += "\": ";
  out += buf;
}

// A record read back; false if any field is missing or of the wrong type.
bool read_record(simdjson::dom::object o, FileRecord& r) {
  std::string_view path, head_hash, tail_hash;
  int64_t mtime = 0, seen = 0;
  if (o["path"].get(path) || o["device"].get(r.device) || o["inode"].get(r.inode) || o["size"].get(r.size) ||
      o["mtime_ns"].get(mtime) || o["compressed"].get(r.compressed) || o["offset"].get(r.offset) ||
      o["lines"].get(r.lines) || o["head_bytes"].get(r.head_bytes) || o["head_hash"].get(head_hash) ||
      o["tail_hash"].get(tail_hash) || o["seen"].get(seen)) {
    return false;
  }
  r.path = std::string(path);
  r.mtime_ns = mtime;
  r.seen = seen;
  const auto hex = [](std::string_view text, uint64_t& v) {
    if (text.size() != 16) return false;
    v = 0;
    for (const char c : text) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return false;
      v = v << 4 | static_cast<uint64_t>(d);
    }
    return true;
  };
  return hex(head_hash, r.head_hash) && hex(tail_hash, r.tail_hash) && r.head_bytes <= r.offset;
}

}  // namespace

State read_state(const std::string& path) {
  State state;
  simdjson::padded_string text;
  const simdjson::error_code loaded = simdjson::padded_string::load(path).get(text);
  if (loaded == simdjson::IO_ERROR && errno == ENOENT) return state;  // the first run
  if (loaded) refuse(path, std::string("cannot be read: ") + std::strerror(errno));
  simdjson::dom::parser parser;
  simdjson::dom::object doc;
  if (parser.parse(text).get(doc)) refuse(path, "not a logagg state file (not a JSON object)");
  int64_t version = 0;
  if (doc["logagg_state"].get(version)) refuse(path, "not a logagg state file (no \"logagg_state\" version)");
  if (version != kStateVersion) {
    refuse(path, "a state file of another version of logagg (format " + std::to_string(version) +
                     "; this logagg reads format " + std::to_string(kStateVersion) + ")");
  }
  simdjson::dom::array files;
  simdjson::dom::element result;
  if (doc["files"].get(files) || doc["result"].get(result)) {
    refuse(path, "a damaged state file (\"files\" or \"result\" missing)");
  }
  std::string_view delta_dir;
  const auto absent_or = [](simdjson::error_code e) { return e == simdjson::SUCCESS || e == simdjson::NO_SUCH_FIELD; };
  if (!absent_or(doc["generation"].get(state.generation)) || !absent_or(doc["delta_dir"].get(delta_dir))) {
    refuse(path, "a damaged state file (\"generation\" or \"delta_dir\" not a number and a string)");
  }
  state.delta_dir = std::string(delta_dir);
  for (simdjson::dom::element e : files) {
    simdjson::dom::object o;
    FileRecord& r = state.files.emplace_back();
    if (e.get(o) || !read_record(o, r)) refuse(path, "a damaged state file (a file record is incomplete)");
  }
  try {
    state.result = parse_partial(simdjson::to_string(result));
  } catch (const std::runtime_error& e) {
    refuse(path, std::string("a damaged state file (its result: ") + e.what() + ")");
  }
  return state;
}

std::string write_state(const std::string& path, uint64_t generation, const std::string& delta_dir,
                        const std::vector<FileRecord>& files, const std::string& result_json) {
  std::string out = "{\"logagg_state\": " + std::to_string(kStateVersion) + ", \"generation\": " + std::to_string(generation);
  if (!delta_dir.empty()) {
    out += ", \"delta_dir\": ";
    append_json_string(out, delta_dir);
  }
  out += ",\n\"files\": [";
  for (size_t i = 0; i < files.size(); ++i) {
    const FileRecord& r = files[i];
    out += i == 0 ? "\n" : ",\n";
    out += "{\"path\": ";
    append_json_string(out, r.path);
    append_field(out, "device", r.device);
    append_field(out, "inode", r.inode);
    append_field(out, "size", r.size);
    out += ", \"mtime_ns\": " + std::to_string(r.mtime_ns);
    out += r.compressed ? ", \"compressed\": true" : ", \"compressed\": false";
    append_field(out, "offset", r.offset);
    append_field(out, "lines", r.lines);
    append_field(out, "head_bytes", r.head_bytes);
    append_hex(out, "head_hash", r.head_hash);
    append_hex(out, "tail_hash", r.tail_hash);
    out += ", \"seen\": " + std::to_string(r.seen) + "}";
  }
  out += "],\n\"result\": ";
  out += result_json;
  out += "}\n";

  const std::string temporary = path + ".tmp";
  if (std::string error = write_synced(temporary, out); !error.empty()) return error;
  if (std::string error = rename_synced(temporary, path); !error.empty()) {
    ::unlink(temporary.c_str());
    return error;
  }
  return {};
}

StateLock::StateLock(const std::string& state_path, std::chrono::milliseconds wait) {
  const std::string lock = state_path + ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) refuse(lock, std::string("cannot be made: ") + std::strerror(errno));
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    ::close(fd_);
    if (error == EWOULDBLOCK) {
      refuse(state_path, "in use by another logagg run (it holds " + lock + ", still after " +
                             std::to_string(wait.count()) + " ms)");
    }
    refuse(lock, std::string("cannot be locked: ") + std::strerror(error));
  }
}

StateLock::~StateLock() { ::close(fd_); }

}  // namespace logagg
