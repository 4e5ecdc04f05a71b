// The descriptors --follow may hold for its files, counted across its two
// threads: the files held (held_files.h) and the names opened the moment
// they were created, not yet taken by the loop (created_names.h).
#pragma once

#include <atomic>
#include <cstddef>

namespace logagg {

class DescriptorBudget {
 public:
  explicit DescriptorBudget(size_t max) : max_(max) {}

  // One more descriptor, if the budget has room for it.
  bool take() {
    size_t used = used_.load();
    do {
      if (used >= max_) return false;
    } while (!used_.compare_exchange_weak(used, used + 1));
    return true;
  }
  // One more, opened whatever the budget said (a file the open found room
  // for after all): at most a few over, which the reserve kept below the
  // process's limit covers.
  void add() { ++used_; }
  void give_back() { --used_; }

  size_t max() const { return max_; }
  size_t free() const {
    const size_t used = used_.load();
    return used < max_ ? max_ - used : 0;
  }

 private:
  const size_t max_;
  std::atomic<size_t> used_{0};
};

}  // namespace logagg
