// Tests for count/app_table.h: the shared table numbers distinct app ids 0, 1,
// 2, ... in the order met; once `max_apps` ids are held it refuses new ones as
// kOther and says so (capped), while the ids it holds keep their numbers; an
// AppCache in front of it answers as the table does; and workers numbering the
// same ids at once get one number per id.
#include "count/app_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace logagg {
namespace {

constexpr uint32_t kOther = AppTable::kOther;

TEST(AppTable, NumbersIdsInTheOrderMet) {
  AppTable table(10);
  EXPECT_EQ(table.intern("web"), 0u);
  EXPECT_EQ(table.intern("api"), 1u);
  EXPECT_EQ(table.intern("web"), 0u);
  EXPECT_EQ(table.intern("db"), 2u);
  EXPECT_EQ(table.intern("api"), 1u);
  EXPECT_EQ(table.names(), (std::vector<std::string>{"web", "api", "db"}));
  EXPECT_FALSE(table.capped());
}

TEST(AppTable, IdsAreWholeBytesNotPrefixesOrCase) {
  AppTable table(10);
  const std::string line = "webweb2";
  EXPECT_EQ(table.intern(std::string_view(line).substr(0, 3)), 0u);  // "web", a view into a longer line
  EXPECT_EQ(table.intern("Web"), 1u);
  EXPECT_EQ(table.intern("web2"), 2u);
  EXPECT_EQ(table.intern("we"), 3u);
  EXPECT_EQ(table.names(), (std::vector<std::string>{"web", "Web", "web2", "we"}));
}

TEST(AppTable, AFullTableKeepsItsIdsAndRefusesNewOnesAsOther) {
  AppTable table(2);
  EXPECT_EQ(table.intern("a"), 0u);
  EXPECT_EQ(table.intern("b"), 1u);
  EXPECT_FALSE(table.capped()) << "full, but nothing refused yet";
  EXPECT_EQ(table.intern("a"), 0u);
  EXPECT_EQ(table.intern("b"), 1u);
  EXPECT_FALSE(table.capped()) << "known ids are not refused";
  EXPECT_EQ(table.intern("c"), kOther);
  EXPECT_TRUE(table.capped());
  EXPECT_EQ(table.intern("c"), kOther) << "never written again";
  EXPECT_EQ(table.intern("b"), 1u);
  EXPECT_EQ(table.names(), (std::vector<std::string>{"a", "b"}));
}

TEST(AppTable, ACapOfZeroRefusesEveryId) {
  AppTable table(0);
  EXPECT_FALSE(table.capped());
  EXPECT_EQ(table.intern("a"), kOther);
  EXPECT_EQ(table.intern(""), kOther);
  EXPECT_TRUE(table.capped());
  EXPECT_TRUE(table.names().empty());
}

TEST(AppCache, AnswersAsTheSharedTable) {
  AppTable table(3);
  AppCache first(table), second(table);
  EXPECT_EQ(first.id("a"), 0u);
  EXPECT_EQ(second.id("b"), 1u);
  EXPECT_EQ(second.id("a"), 0u) << "numbered by the other worker's cache";
  EXPECT_EQ(first.id("b"), 1u);
  EXPECT_EQ(first.id("a"), 0u);
  EXPECT_EQ(first.id("c"), 2u);
  EXPECT_EQ(first.id("d"), kOther);
  EXPECT_EQ(second.id("d"), kOther);
  EXPECT_EQ(first.id("d"), kOther) << "an id left out stays out";
  EXPECT_EQ(second.id("c"), 2u);
  EXPECT_TRUE(table.capped());
  EXPECT_EQ(table.names(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(AppCache, KeepsItsOwnCopyOfEachId) {
  // The ids a worker looks up point into its current line, which the next
  // line overwrites: the memo must not keep the view.
  AppTable table(10);
  AppCache cache(table);
  std::string line = "alpha";
  EXPECT_EQ(cache.id(line), 0u);
  line = "gamma";
  EXPECT_EQ(cache.id(line), 1u);
  EXPECT_EQ(cache.id("alpha"), 0u);
  EXPECT_EQ(cache.id("gamma"), 1u);
}

TEST(AppCache, EveryByteOfAnIdCounts) {
  // Short ids are looked up by words of their bytes (ShortId): an id of each
  // length up to past the short ones, and the ids that differ from it in one
  // byte (at each position, including a NUL), must all get their own number,
  // as the shared table gives them.
  AppTable table(10000);
  AppCache cache(table);
  std::vector<std::string> ids;
  for (size_t n = 0; n <= ShortId::kMaxBytes + 2; ++n) {
    const std::string base(n, 'a');
    ids.push_back(base);
    for (size_t i = 0; i < n; ++i) {
      for (const char c : {'b', '\0'}) {
        std::string id = base;
        id[i] = c;
        ids.push_back(id);
      }
    }
  }
  for (const std::string& id : ids) {
    const uint32_t n = cache.id(id);
    ASSERT_NE(n, kOther);
    EXPECT_EQ(table.names()[n], id) << "id of " << id.size() << " bytes";
  }
  ASSERT_EQ(table.names().size(), ids.size()) << "no two ids share a number";
  for (const std::string& id : ids) EXPECT_EQ(table.names()[cache.id(id)], id) << "asked again";
}

TEST(AppCache, IdsAlikeButForTheirLengthAreToldApartByTheFrontTable) {
  // "7", "77" and "777" have the same ShortId words (the first, middle and
  // last byte) and differ in their length alone.
  AppTable table(10);
  AppCache cache(table);
  for (int round = 0; round < 3; ++round) {
    for (const std::string id : {"7", "77", "777", "7777"}) {
      const uint32_t n = cache.id(id);
      ASSERT_NE(n, kOther);
      EXPECT_EQ(table.names()[n], id) << "round " << round;
    }
  }
}

TEST(AppCache, AnswersAsTheTableOnBothSidesOfFewIds) {
  // Up to kFewIds ids are answered from a direct-mapped table in front of
  // the memo, where ids share slots (a slot holds the one met last); past
  // kFewIds the memo alone answers. Ids met in turn, again and again, from
  // one to well past kFewIds distinct: every answer must be the table's.
  AppTable table(10000);
  AppCache cache(table);
  const size_t many = 3 * AppCache::kFewIds;
  size_t most = 0;
  for (size_t distinct = 1; distinct <= many; distinct += distinct < AppCache::kFewIds + 2 ? 1 : 17) {
    for (size_t round = 0; round < 3; ++round) {
      for (size_t k = 0; k < distinct; ++k) {
        const std::string id = std::to_string(100 + (k + 7 * round) % distinct);  // a status's text
        const uint32_t n = cache.id(id);
        ASSERT_NE(n, kOther);
        ASSERT_EQ(table.names()[n], id) << distinct << " ids met in turn";
      }
    }
    most = distinct;
  }
  EXPECT_EQ(table.names().size(), most) << "no id numbered twice";
}

// Small on purpose: these also run under TSan.
constexpr int kThreads = 4;
constexpr int kIds = 40;

std::string id_name(int i) { return "app" + std::to_string(i); }

// Each thread numbers every id through its own cache, in its own order, a
// few times over; returns what each thread was told, by id.
std::vector<std::vector<uint32_t>> number_concurrently(AppTable& table) {
  std::vector<std::vector<uint32_t>> seen(kThreads, std::vector<uint32_t>(kIds, 0));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&table, &seen, t] {
      AppCache cache(table);
      for (int round = 0; round < 3; ++round) {
        for (int k = 0; k < kIds; ++k) {
          const int i = t % 2 == 0 ? (k * 7 + t) % kIds : kIds - 1 - k;  // orders differ between threads
          seen[t][i] = cache.id(id_name(i));
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  return seen;
}

TEST(AppTableThreads, EveryIdGetsOneNumberForAllWorkers) {
  AppTable table(1000);
  const std::vector<std::vector<uint32_t>> seen = number_concurrently(table);
  ASSERT_EQ(table.names().size(), static_cast<size_t>(kIds));
  for (int i = 0; i < kIds; ++i) {
    const uint32_t n = seen[0][i];
    ASSERT_LT(n, static_cast<uint32_t>(kIds));
    EXPECT_EQ(table.names()[n], id_name(i));
    for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t][i], n) << id_name(i) << " in thread " << t;
  }
  EXPECT_FALSE(table.capped());
}

TEST(AppTableThreads, FillingUpAtOnceKeepsExactlyTheCap) {
  constexpr size_t kCap = 15;
  AppTable table(kCap);
  const std::vector<std::vector<uint32_t>> seen = number_concurrently(table);
  ASSERT_EQ(table.names().size(), kCap);
  EXPECT_TRUE(table.capped());
  std::vector<uint32_t> numbers;
  for (int i = 0; i < kIds; ++i) {
    const uint32_t n = seen[0][i];
    for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t][i], n) << id_name(i) << " in thread " << t;
    const bool kept = std::find(table.names().begin(), table.names().end(), id_name(i)) != table.names().end();
    if (!kept) {
      EXPECT_EQ(n, kOther) << id_name(i);
      continue;
    }
    ASSERT_LT(n, kCap);
    EXPECT_EQ(table.names()[n], id_name(i));
    numbers.push_back(n);
  }
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(std::unique(numbers.begin(), numbers.end()), numbers.end());
  EXPECT_EQ(numbers.size(), kCap);
}

}  // namespace
}  // namespace logagg
