// --by-app: numbering the app ids of a run. All workers share one AppTable,
// which gives each distinct app id a number; each worker looks ids up through
// its own AppCache first, so the shared table is locked only the first time a
// worker meets an id.
//
// Memory stays bounded however many distinct ids the logs hold: the table
// keeps at most `max_apps` of them (Question::max_apps). Once it is full it is
// never written again, and an id it does not hold is numbered kOther: its
// lines are counted as "(other)". Which ids made it in before the table
// filled depends on the order the workers met them, so a run that fills the
// table says so (Result::apps_capped); below the cap the numbering does not
// change any output.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace logagg {

class AppTable {
 public:
  static constexpr uint32_t kOther = UINT32_MAX;

  explicit AppTable(size_t max_apps) : max_apps_(max_apps), full_(max_apps == 0) {}

  // The number of `app`, given it if it is new and the table has room; kOther
  // if the table is full without it. Thread-safe.
  uint32_t intern(std::string_view app);

  // Whether some id was refused for lack of room.
  bool capped() const { return capped_.load(std::memory_order_relaxed); }
  // The ids by number. Call after the workers are done.
  const std::vector<std::string>& names() const { return names_; }

 private:
  size_t max_apps_;
  std::mutex mu_;
  absl::flat_hash_map<std::string, uint32_t> ids_;  // read without the lock once full_
  std::vector<std::string> names_;
  std::atomic<bool> full_{false};
  std::atomic<bool> capped_{false};
};

// An id of up to 16 bytes as two words and its length, which together
// determine it: a key hashed and compared without touching the id's bytes
// again, nor a string's heap copy. Bytes [0, 8) and [n - 8, n) cover an id of
// 8 to 16 bytes, [0, 4) and [n - 4, n) one of 4 to 7, the first, middle and
// last byte one of up to 3.
struct ShortId {
  static constexpr size_t kMaxBytes = 16;

  // `id` has at most kMaxBytes bytes.
  static ShortId of(std::string_view id) {
    const char* p = id.data();
    const size_t n = id.size();
    ShortId k{0, 0, static_cast<uint32_t>(n)};
    if (n >= 8) {
      std::memcpy(&k.head, p, 8);
      std::memcpy(&k.tail, p + n - 8, 8);
    } else if (n >= 4) {
      uint32_t head, tail;
      std::memcpy(&head, p, 4);
      std::memcpy(&tail, p + n - 4, 4);
      k.head = head | uint64_t{tail} << 32;
    } else if (n > 0) {
      k.head = uint64_t{uint8_t(p[0])} | uint64_t{uint8_t(p[n / 2])} << 8 | uint64_t{uint8_t(p[n - 1])} << 16;
    }
    return k;
  }

  uint64_t head, tail;
  uint32_t size;

  bool operator==(const ShortId&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const ShortId& k) {
    return H::combine(std::move(h), k.head, k.tail, k.size);
  }
};

// A worker's private memo of the shared table's answers (never kOther: an id
// left out is asked again, so the memo holds at most max_apps ids). Ids of up
// to 16 bytes are looked up by their ShortId: with --by-app the lookup runs
// for every counted line, where hashing the id as a string and comparing it
// with memcmp was much of what the lookup and count added to a --by-app run
// (docs/bench-notes/2026-12-02-by-app.md).
//
// While the memo holds few ids (kFewIds: a status, a method, a status class,
// a pair of them), a direct-mapped table in front of it answers most lookups
// with one multiply and one compare, a slot per id. Past kFewIds it steps
// aside for good, at the price of one predicted branch: many ids met in turn
// thrash any small table, and each miss would pay the slot on top of the map
// (docs/bench-notes/2026-12-05-walk-baseline.md).
class AppCache {
 public:
  static constexpr size_t kFewIds = 256;

  explicit AppCache(AppTable& table) : table_(&table) {}

  // Inlined up to the front table's hit; the rest is out of line.
  uint32_t id(std::string_view app) {
    if (few_ && app.size() <= ShortId::kMaxBytes) [[likely]] {
      const ShortId key = ShortId::of(app);
      const Slot& slot = front_[slot_of(key)];
      if (slot.holds(key)) [[likely]] return slot.id;
    }
    return id_past_front(app);
  }

 private:
  // Four slots an id, so that few ids seldom share one (a shared slot holds
  // the id met last; the other is still found in the map).
  static constexpr int kSlotBits = 10;
  static_assert(size_t{1} << kSlotBits >= 4 * kFewIds);
  struct Slot {  // a ShortId and its number in 24 bytes
    uint64_t head = 0, tail = 0;
    uint32_t size = UINT32_MAX;  // no id has that size
    uint32_t id = 0;
    bool holds(const ShortId& k) const { return head == k.head && tail == k.tail && size == k.size; }
  };
  static size_t slot_of(const ShortId& k) {
    const uint64_t mixed = (k.head ^ (k.tail * 0x9E3779B97F4A7C15u) ^ k.size) * 0xD6E8FEB86659FD93u;
    return static_cast<size_t>(mixed >> (64 - kSlotBits));
  }

  [[gnu::noinline]] uint32_t id_past_front(std::string_view app) {
    if (app.size() > ShortId::kMaxBytes) return look_up(ids_, absl::string_view(app.data(), app.size()), app);
    const ShortId key = ShortId::of(app);
    const uint32_t id = look_up(short_ids_, key, app);
    if (few_ && id != AppTable::kOther) front_[slot_of(key)] = {key.head, key.tail, key.size, id};
    few_ = short_ids_.size() <= kFewIds;
    return id;
  }

  // `app`'s number in `memo` under `key`, asked of the table the first time.
  template <typename Memo, typename Key>
  uint32_t look_up(Memo& memo, const Key& key, std::string_view app) {
    const auto it = memo.find(key);
    if (it != memo.end()) [[likely]] return it->second;
    const uint32_t id = table_->intern(app);
    if (id != AppTable::kOther) memo.emplace(key, id);
    return id;
  }

  AppTable* table_;
  bool few_ = true;  // the memo holds at most kFewIds ids: front_ is used
  std::vector<Slot> front_ = std::vector<Slot>(size_t{1} << kSlotBits);
  absl::flat_hash_map<ShortId, uint32_t> short_ids_;
  absl::flat_hash_map<std::string, uint32_t> ids_;  // longer ids
};

}  // namespace logagg
