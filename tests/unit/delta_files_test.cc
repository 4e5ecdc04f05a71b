// Tests for the delta files of --delta-dir (engine/src/state/delta_files.h)
// and their commit with the state (IncrementalRun::save):
// - names: generation N as NNNNNNNNNNNN.json; the folder as the state
//   records it (absolute, no trailing slash, links resolved);
// - settling: a pending delta of the state's generation (or earlier) in the
//   folder the state names is published, any other pending delta deleted,
//   other files left alone; a folder made if missing; a folder that holds
//   the next delta's name, that is a file or that holds the state, refused;
// - a saved run's delta is published with the state's generation, a run not
//   saved leaves no file, and a state that cannot be written leaves neither
//   a delta nor a pending one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "logagg/merge.h"
#include "logagg/state.h"
#include "state/delta_files.h"
#include "state/state_file.h"
#include "support/log_folder.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;

class DeltaFiles : public LogFolderTest {
 protected:
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }
  std::string folder() const { return delta_dir_path(path("deltas")); }
  // The names in deltas/, sorted.
  std::vector<std::string> listed() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path("deltas"))) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  IncrementalRun run() const { return aggregate_incremental({path("logs")}, {}, path("state.json"), path("deltas")); }
};

TEST_F(DeltaFiles, Names) {
  EXPECT_EQ(delta_file_name(42), "000000000042.json");
  EXPECT_EQ(delta_file_name(999999999999), "999999999999.json");
  EXPECT_EQ(delta_dir_path(path("deltas") + "/"), path("deltas"));
  const fs::path here = fs::current_path();
  fs::current_path(path("logs"));
  EXPECT_EQ(delta_dir_path("../deltas/./"), fs::weakly_canonical(path("deltas")).string());
  fs::current_path(here);
  fs::create_directories(path("real"));
  fs::create_directory_symlink(path("real"), path("link"));
  EXPECT_EQ(delta_dir_path(path("link")), fs::canonical(path("real")).string());
}

TEST_F(DeltaFiles, SettlingPublishesWhatWasSavedAndDeletesTheRest) {
  fs::create_directories(path("deltas"));
  write("deltas/.000000000002.json.pending", "two");  // saved, then stopped (after a failed publish)
  write("deltas/.000000000003.json.pending", "three");  // saved, then stopped
  write("deltas/.000000000004.json.pending", "four");   // stopped before it saved
  write("deltas/notes", "");
  write("deltas/.000000000005.json.pending.bak", "");
  State state;
  state.generation = 3;
  state.delta_dir = folder();
  settle_deltas(folder(), state, path("state.json"));
  EXPECT_EQ(listed(), (std::vector<std::string>{".000000000005.json.pending.bak", "000000000002.json",
                                                "000000000003.json", "notes"}));
  EXPECT_EQ(read("deltas/000000000003.json"), "three");
  // In a folder the state does not name, no pending delta was saved.
  write("deltas/.000000000003.json.pending", "three again");
  state.delta_dir.clear();
  state.generation = 0;
  settle_deltas(folder(), state, path("state.json"));
  EXPECT_FALSE(fs::exists(path("deltas/.000000000003.json.pending")));
}

TEST_F(DeltaFiles, SettlingMakesTheFolderAndRefusesATakenName) {
  State state;
  settle_deltas(folder(), state, path("state.json"));
  EXPECT_TRUE(fs::is_directory(path("deltas")));
  write("deltas/000000000001.json", "{}");  // another state's first delta
  EXPECT_THROW(settle_deltas(folder(), state, path("state.json")), StateError);
  state.generation = 1;  // the next name is free
  settle_deltas(folder(), state, path("state.json"));
  write("file", "");
  EXPECT_THROW(settle_deltas(delta_dir_path(path("file")), state, path("state.json")), StateError);
  EXPECT_THROW(settle_deltas(folder(), state, path("deltas/state.json")), StateError);  // the state's folder
}

TEST_F(DeltaFiles, PublishedIfAndOnlyIfTheStateIsSaved) {
  write("logs/a.log", lines(0, 20));
  IncrementalRun first = run();
  EXPECT_EQ(first.save(), "");
  EXPECT_EQ(first.unpublished, "");
  EXPECT_EQ(listed(), std::vector<std::string>{"000000000001.json"});
  EXPECT_EQ(parse_partial(read("deltas/000000000001.json")).result.summary.counted, 20u);
  const State saved = read_state(path("state.json"));
  EXPECT_EQ(saved.generation, 1u);
  EXPECT_EQ(saved.delta_dir, folder());

  write("logs/a.log", lines(20, 5), /*append=*/true);
  run();  // not saved: the report was lost
  EXPECT_EQ(listed(), std::vector<std::string>{"000000000001.json"});

  IncrementalRun unwritable = run();
  fs::create_directories(path("state.json.tmp"));  // the state cannot be written
  EXPECT_NE(unwritable.save(), "");
  EXPECT_EQ(listed(), std::vector<std::string>{"000000000001.json"});  // no delta, no pending one
  EXPECT_EQ(read_state(path("state.json")).generation, 1u);
  fs::remove(path("state.json.tmp"));

  IncrementalRun second = run();
  EXPECT_EQ(second.save(), "");
  EXPECT_EQ(listed(), (std::vector<std::string>{"000000000001.json", "000000000002.json"}));
  EXPECT_EQ(parse_partial(read("deltas/000000000002.json")).result.summary.counted, 5u);
  EXPECT_EQ(read_state(path("state.json")).generation, 2u);
}

}  // namespace
}  // namespace logagg
