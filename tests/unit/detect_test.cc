// Tests of `logagg detect`'s engine (detect/): the sample (whole lines from
// the start and windows spread through a large file, a compressed file's
// start, errors), the shapes of lines (fields by name and by JSON Pointer)
// and the suggestions: time formats per field (one format, mixed forms as
// auto), id patterns from the bytes of the values (hosts with ports, router
// chains, a few malformed values left out), ids of requests (but a field
// named like an id with a value per line, a host per line) and constant
// fields not suggested, a status breakdown, the measures (status, duration
// and its unit, the size sent), the fields an expert would pick (the time
// of the request, a key that names who, the status by name, the request's
// own duration), files of different shapes grouped, text that is not JSON,
// and command lines quoted for a shell.
#include "logagg/detect.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "detect/fields.h"

namespace logagg {
namespace {

using Flags = std::vector<std::string>;

std::vector<std::string> lines_of(size_t n, const std::function<std::string(size_t)>& line) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(line(i));
  return out;
}

std::string host(size_t i) { return std::vector<std::string>{"shop.example.com", "127.0.0.1:8080", "api.example.com"}[i % 3]; }

TEST(Detect, HostsWithPortsNestedAndTimeInUnixSeconds) {
  const auto lines = lines_of(30, [](size_t i) {
    return R"({"level":"info","ts":)" + std::to_string(1700000000 + i) + R"(.25,"request":{"host":")" + host(i) +
           R"(","uri":"/)" + std::to_string(i) + R"("},"status":200})";
  });
  const Detection d = detect(lines);
  ASSERT_FALSE(d.suggestions.empty());
  EXPECT_EQ(d.lines, 30u);
  EXPECT_EQ(d.suggestions[0].flags, (Flags{"--time-field", "ts", "--time-format", "unix", "--app-field",
                                           "/request/host", "--app-pattern", "[a-z0-9.:]+", "--by-app"}))
      << "the class of the bytes seen";
}

TEST(Detect, RouterChainsAndTheDefaultPatternWhenLettersAndDigitsFit) {
  const auto lines = lines_of(40, [](size_t i) {
    const std::string router = i % 4 == 0 ? "root@file -> api-v2@file" : i % 2 ? "api@docker" : "web@docker";
    return R"({"StartUTC":"2023-11-14T22:13:20.5Z","RouterName":")" + router + R"(","app":"svc)" +
           std::to_string(i % 3) + R"(","RequestId":"r)" + std::to_string(i) + R"("})";
  });
  const Detection d = detect(lines);
  std::vector<Flags> flags;
  for (const Suggestion& s : d.suggestions) flags.push_back(s.flags);
  EXPECT_NE(std::find(flags.begin(), flags.end(),
                      Flags{"--time-field", "StartUTC", "--app-field", "RouterName", "--app-pattern", "[a-z0-9 >@-]+",
                            "--by-app"}),
            flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), Flags{"--time-field", "StartUTC", "--app-field", "app", "--by-app"}),
            flags.end());
  for (const Flags& f : flags) {
    EXPECT_EQ(std::find(f.begin(), f.end(), "RequestId"), f.end()) << "one value per line: not an app";
  }
}

TEST(Detect, AFieldNamedLikeAnIdIsOneEvenWithADifferentValueOnMostLines) {
  // Pino's own documentation: three hosts in four lines, and a msg on three.
  const auto lines = lines_of(4, [](size_t i) {
    const std::string hostname = std::vector<std::string>{"Davids-MBP-3.fritz.box", "Davids-MBP-3.fritz.box",
                                                          "MacBook-Pro-3.home", "Davids-MacBook-Pro-3.local"}[i];
    const std::string msg = i == 3 ? "" : R"("msg":"m)" + std::to_string(i) + R"(",)";
    return R"({"level":30,"time":)" + std::to_string(1531171074631 + i) + "," + msg + R"("hostname":")" + hostname +
           R"(","upstream_service_time":")" + std::to_string(40 + i) + R"("})";
  });
  const Detection d = detect(lines);
  ASSERT_FALSE(d.suggestions.empty());
  EXPECT_EQ(d.suggestions[0].flags, (Flags{"--time-field", "time", "--time-format", "unix-ms", "--app-field",
                                           "hostname", "--app-pattern", "[a-zA-Z0-9.-]+", "--by-app"}));
  EXPECT_EQ(d.suggestions[0].counted, 4u);
  for (const Suggestion& s : d.suggestions) {
    EXPECT_EQ(std::find(s.flags.begin(), s.flags.end(), "upstream_service_time"), s.flags.end())
        << "numbers, a value per line: not an id, whatever its name";
  }
}

TEST(Detect, AFieldNamedForWhoFirstWhenItCountsTwoThirdsOfTheMost) {
  const auto lines = [](size_t without_host) {
    return lines_of(20, [without_host](size_t i) {
      const std::string host_field = i < without_host ? "" : R"("host":")" + host(i) + R"(",)";
      return "{" + host_field + R"("logger":"l)" + std::to_string(i % 2) + R"(","time":"2023-11-14T22:13:20Z"})";
    });
  };
  // A host names the site asked, more closely than a logger: first when it
  // counts two thirds of the most.
  const Detection named = detect(lines(6));  // host counts 14 of the 20 logger counts: 70%
  ASSERT_GE(named.suggestions.size(), 2u);
  EXPECT_EQ(named.suggestions[0].flags[3], "host");
  EXPECT_EQ(named.suggestions[0].counted, 14u);
  EXPECT_EQ(named.suggestions[1].flags[3], "logger");
  const Detection most = detect(lines(7));  // 13 of 20: by count
  ASSERT_GE(most.suggestions.size(), 2u);
  EXPECT_EQ(most.suggestions[0].flags[3], "logger");
  EXPECT_EQ(most.suggestions[0].counted, 20u);
}

TEST(Detect, AFewMalformedValuesDoNotWidenThePattern) {
  const auto lines = lines_of(200, [](size_t i) {
    const std::string app = i == 7 ? "bad id!" : "app" + std::to_string(i % 5);
    return R"({"app_id":")" + app + R"(","timestamp":"2023-11-14T22:13:20Z"})";
  });
  const Detection d = detect(lines);
  ASSERT_FALSE(d.suggestions.empty());
  EXPECT_EQ(d.suggestions[0].flags, Flags{"--by-app"}) << "the defaults: app_id, timestamp, [A-Za-z0-9]+";
  EXPECT_EQ(d.suggestions[0].counted, 199u);
}

TEST(Detect, MixedTimeFormsReadAsAuto) {
  const auto lines = lines_of(20, [](size_t i) {
    const std::string time = i % 2 ? "\"2023-11-14T22:13:20Z\"" : "1700000000123456789";
    return R"({"EdgeStartTimestamp":)" + time + R"(,"ClientRequestHost":")" + host(i % 2 * 2) + R"("})";
  });
  const Detection d = detect(lines);
  ASSERT_FALSE(d.suggestions.empty());
  const Flags& f = d.suggestions[0].flags;
  ASSERT_GE(f.size(), 4u);
  EXPECT_EQ(Flags(f.begin(), f.begin() + 4), (Flags{"--time-field", "EdgeStartTimestamp", "--time-format", "auto"}));
  EXPECT_EQ(d.suggestions[0].counted, 20u);
}

TEST(Detect, EveryLineWithATimeAndAStatusBreakdown) {
  const auto lines = lines_of(10, [](size_t i) {
    return R"({"time":"2023-11-14T22:13:2)" + std::to_string(i) + R"(Z","response_code":)" +
           std::to_string(i % 3 ? 200 : 503) + "}";
  });
  const Detection d = detect(lines);
  ASSERT_EQ(d.suggestions.size(), 3u) << "no string field for an id";
  EXPECT_EQ(d.suggestions[0].flags, (Flags{"--time-field", "time", "--app-field", "none"}));
  EXPECT_EQ(d.suggestions[1].flags,
            (Flags{"--time-field", "time", "--app-field", "none", "--by-status-class", "response_code"}));
  EXPECT_EQ(d.suggestions[1].counted, 10u);
  EXPECT_EQ(d.suggestions[2].flags, (Flags{"--time-field", "time", "--app-field", "none", "--per-minute",
                                           "--by-status-class", "response_code", "--count-if", "response_code>=500"}));
  EXPECT_EQ(d.measures.status, "response_code");
  EXPECT_EQ(d.measures.duration, "");
}

TEST(Detect, MeasuresOfDurationWithItsUnitAndTheSizeSentDownstream) {
  const auto lines = lines_of(10, [](size_t i) {
    return R"({"time":"2023-11-14T22:13:2)" + std::to_string(i) + R"(Z","req_bytes":)" + std::to_string(100 + i) +
           R"(,"body_bytes_sent":")" + std::to_string(5000 + i) + R"(","request_time_ms":)" + std::to_string(i) +
           R"(.5,"origin_latency":3,"status":)" + std::to_string(i % 3 ? 200 : 503) + "}";
  });
  const Detection d = detect(lines);
  EXPECT_EQ(d.measures.status, "status");
  EXPECT_EQ(d.measures.duration, "request_time_ms") << "the first duration";
  EXPECT_EQ(d.measures.duration_unit, "milliseconds");
  EXPECT_EQ(d.measures.size, "body_bytes_sent") << "what was sent, a string holding a number";
  ASSERT_FALSE(d.suggestions.empty());
  const Suggestion& red = d.suggestions.back();
  EXPECT_EQ(red.flags, (Flags{"--time-field", "time", "--app-field", "none", "--per-minute", "--by-status-class",
                              "status", "--count-if", "status>=500", "--quantiles", "request_time_ms", "--unit",
                              "request_time_ms=ms", "--sum", "body_bytes_sent"}));
  EXPECT_EQ(red.counted, 10u);
  EXPECT_NE(red.what.find("quantiles of request_time_ms (milliseconds by its name)"), std::string::npos) << red.what;

  const Detection unnamed = detect(lines_of(10, [](size_t i) {  // no status, a duration without a unit
    return R"({"ts":170000000)" + std::to_string(i) + R"(,"duration":)" + std::to_string(i) + "}";
  }));
  ASSERT_FALSE(unnamed.suggestions.empty());
  EXPECT_EQ(unnamed.suggestions.back().flags, (Flags{"--time-field", "ts", "--time-format", "unix", "--app-field",
                                                     "none", "--per-minute", "--quantiles", "duration"}));
  EXPECT_NE(unnamed.suggestions.back().what.find("its unit not in its name"), std::string::npos);
  const Detection none = detect(lines_of(10, [](size_t i) { return R"({"ts":170000000)" + std::to_string(i) + "}"; }));
  ASSERT_EQ(none.suggestions.size(), 1u) << "no measure fields, no measures";
}

TEST(Detect, NotJsonLinesOrNoTime) {
  const auto text = lines_of(10, [](size_t) { return R"(203.0.113.9 - - [14/Nov/2023:22:13:20 +0000] "GET /")"; });
  const Detection d = detect(text);
  EXPECT_TRUE(d.suggestions.empty());
  EXPECT_EQ(d.objects, 0u);
  EXPECT_EQ(d.not_json, text[0]);
  const Detection no_time = detect(lines_of(10, [](size_t i) { return R"({"n":)" + std::to_string(i) + "}"; }));
  EXPECT_TRUE(no_time.suggestions.empty());
  EXPECT_TRUE(no_time.not_json.empty());
  EXPECT_TRUE(detect({}).suggestions.empty());
  EXPECT_TRUE(detect({"", "  ", "\t"}).suggestions.empty());
}

TEST(Fields, NamesPlainOrPointer) {
  EXPECT_EQ(field_name({"service.name"}), "service.name");
  EXPECT_EQ(field_name({"request", "host"}), "/request/host");
  EXPECT_EQ(field_name({"/x"}), "/~1x");
  EXPECT_EQ(field_name({"a/b", "c~d"}), "/a~1b/c~0d");
  const SampleShape shape = read_shape({R"({"a":{"b":{"c":{"d":1}},"e":"x"},"a":{"e":"y"}})", "not json", ""});
  EXPECT_EQ(shape.lines, 2u);
  EXPECT_EQ(shape.objects, 1u);
  EXPECT_EQ(shape.first_other, "not json");
  std::vector<std::string> names;
  for (const FieldValues& f : shape.fields) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"/a/e"})) << "three levels deep at most: /a/b/c/d is not looked at";
  EXPECT_EQ(shape.fields[0].lines, 1u) << "a key met twice in a line counts once";
  EXPECT_EQ(shape.fields[0].values, std::vector<std::string>{"x"}) << "the first";
}

TEST(ShellQuoted, SafeBytesAsTheyAreElseSingleQuotes) {
  EXPECT_EQ(shell_quoted("data/recipes/caddy.log"), "data/recipes/caddy.log");
  EXPECT_EQ(shell_quoted("--app-field"), "--app-field");
  EXPECT_EQ(shell_quoted("[a-z0-9.:]+"), "'[a-z0-9.:]+'");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quoted(""), "''");
  EXPECT_EQ(shell_quoted("@timestamp"), "@timestamp");
  EXPECT_EQ(shell_quoted("a b"), "'a b'");
}

class SampleTest : public testing::Test {
 protected:
  void SetUp() override { dir_ = std::filesystem::temp_directory_path() / ("detect_test_" + std::to_string(::getpid())); std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SampleTest, WholeLinesFromTheStartAndSpreadThroughALargeFile) {
  const std::string path = dir_ / "big.log";
  std::ofstream out(path);
  const size_t n = 100000;  // about 4 MiB
  for (size_t i = 0; i < n; ++i) out << R"({"n":)" << i << R"(,"pad":"xxxxxxxxxxxxxxxxxxxxx"})" << "\n";
  out.close();
  const Sample sample = sample_inputs({path});
  ASSERT_EQ(sample.files, std::vector<std::string>{path});
  EXPECT_TRUE(sample.errors.empty());
  EXPECT_LE(sample.lines.size(), SampleLimits{}.max_lines);
  EXPECT_GT(sample.lines.size(), 1000u);
  EXPECT_EQ(sample.lines.front(), R"({"n":0,"pad":"xxxxxxxxxxxxxxxxxxxxx"})");
  for (const std::string& line : sample.lines) {
    ASSERT_TRUE(line.starts_with(R"({"n":)") && line.ends_with(R"(xx"})")) << "not a whole line: " << line;
  }
  const SampleShape shape = read_shape(sample.lines);
  EXPECT_EQ(shape.objects, sample.lines.size());
  EXPECT_GT(std::stoul(sample.lines.back().substr(5)), n * 9 / 10) << "the last window is near the end";
}

TEST_F(SampleTest, CompressedFilesFromTheirStartAndErrors) {
  const std::string path = dir_ / "small.log.gz";
  gzFile gz = gzopen(path.c_str(), "wb");
  for (int i = 0; i < 3; ++i) gzputs(gz, "{\"a\":1}\r\n");
  gzclose(gz);
  const Sample sample = sample_inputs({path, (dir_ / "missing.log").string()});
  EXPECT_EQ(sample.lines, (std::vector<std::string>{"{\"a\":1}", "{\"a\":1}", "{\"a\":1}"}));
  ASSERT_EQ(sample.errors.size(), 1u);
  EXPECT_NE(sample.errors[0].message.find("No such file"), std::string::npos);
}

// The fields an expert would pick, whatever their order in the line: the
// time of the request (ts over _write_ts, a start over an end), a key that
// names who (never a level or a connection's id, even one that repeats), the
// status by name and values (response), the request's own duration with its
// unit, not a constant bound.
TEST(Detect, PicksTheFieldsAnExpertWould) {
  const auto lines = lines_of(40, [](size_t i) {
    const std::string t = std::to_string(1700000000 + i);
    return R"({"_write_ts":")" + std::string("2023-11-14T22:14:0") + std::to_string(i % 10) + R"(Z","end_ts":)" + t +
           R"(.9,"level":")" + (i % 2 ? "info" : "warn") + R"(","uid":"C)" + std::to_string(i / 2) + R"(","ts":)" + t +
           R"(.1,"response":)" + (i % 5 ? "200" : "503") + R"(,"target_duration_s":)" + (i % 2 ? "1" : "5") + R"(,"db_duration_s":0.)" +
           std::to_string(i) + R"(,"duration_s":0.)" + std::to_string(i + 1) + R"(,"server_name":")" +
           (i % 3 ? "a.example" : "b.example") + R"("})";
  });
  const Detection d = detect(lines);
  EXPECT_EQ(d.time_field, "ts");
  EXPECT_EQ(d.time_format, "unix");
  EXPECT_EQ(d.key_field, "server_name");
  for (const Suggestion& s : d.suggestions) {
    EXPECT_NE(s.key_field, "level");
    EXPECT_NE(s.key_field, "uid") << "a connection's id, though its values repeat";
  }
  EXPECT_EQ(d.measures.status, "response");
  EXPECT_EQ(d.measures.duration, "duration_s") << "the request's own, not a part's or a bound";
  EXPECT_EQ(d.measures.duration_unit, "seconds") << "_s, not nanoseconds";
  const Suggestion& red = d.suggestions.back();
  EXPECT_NE(std::find(red.flags.begin(), red.flags.end(), "duration_s=s"), red.flags.end()) << red.what;
}

TEST(Detect, FilesOfDifferentShapesAreGroupedEachWithItsCommands) {
  Sample sample;
  const auto add = [&sample](const std::string& file, const std::vector<std::string>& lines) {
    sample.files.push_back(file);
    sample.first_line.push_back(sample.lines.size());
    sample.lines.insert(sample.lines.end(), lines.begin(), lines.end());
  };
  const auto nginx = [](size_t i) {
    return R"({"time_local":"14/Nov/2023:22:13:2)" + std::to_string(i % 10) + R"( +0000","host":")" + host(i) + R"("})";
  };
  const auto caddy = [](size_t i) {
    return R"({"ts":)" + std::to_string(1700000000 + i) + R"(.5,"request":{"host":")" + host(i) + R"("}})";
  };
  add("a.log", lines_of(10, nginx));
  add("b.log", lines_of(10, caddy));
  add("c.log", lines_of(5, nginx));
  add("d.txt", {"not json"});
  const std::vector<ShapeGroup> groups = detect_groups(sample);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].files, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(groups[0].detection.time_field, "time_local");
  EXPECT_EQ(groups[0].detection.suggestions.front().counted, 15u) << "both files' lines";
  EXPECT_EQ(groups[1].files, (std::vector<size_t>{1}));
  EXPECT_EQ(groups[1].detection.key_field, "/request/host");
  EXPECT_EQ(groups[2].files, (std::vector<size_t>{3}));
  EXPECT_FALSE(groups[2].detection.not_json.empty());

  Sample one;
  one.files = {"a.log", "c.log"};
  one.first_line = {0, 10};
  one.lines = lines_of(15, nginx);
  const std::vector<ShapeGroup> alike = detect_groups(one);
  ASSERT_EQ(alike.size(), 1u);
  EXPECT_EQ(alike[0].files, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(detect_groups(Sample{}).front().detection.suggestions.empty()) << "nothing sampled";
}

}  // namespace
}  // namespace logagg
