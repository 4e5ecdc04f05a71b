// Tests of what detect reads in a field's name (detect/field_names.h): its
// words (cut at separators, case changes and the end of an acronym), a time
// of receipt over an end, a stage or a write, who a key names (a host over a
// service over a logger; never a level, a message, a URI, a version or a
// request's id; the client's own host is not who was asked), the status the
// client got, a duration's unit by its last word, and bounds and parts that
// measure no request.
#include "detect/field_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace logagg {
namespace {

using Words = std::vector<std::string>;

TEST(FieldNames, WordsAreCutAtSeparatorsCaseChangesAndAcronymEnds) {
  EXPECT_EQ(name_words("EdgeStartTimestamp"), (Words{"edge", "start", "timestamp"}));
  EXPECT_EQ(name_words("OriginResponseHTTPExpires"), (Words{"origin", "response", "http", "expires"}));
  EXPECT_EQ(name_words("/request/host"), (Words{"request", "host"}));
  EXPECT_EQ(name_words("_write_ts"), (Words{"write", "ts"}));
  EXPECT_EQ(name_words("http.response.status_code"), (Words{"http", "response", "status", "code"}));
  EXPECT_EQ(name_words("duration_s"), (Words{"duration", "s"}));
  EXPECT_EQ(name_words("StartUTC"), (Words{"start", "utc"}));
  EXPECT_EQ(name_words(":authority"), (Words{"authority"}));
  EXPECT_TRUE(name_words("").empty());
}

TEST(FieldNames, TheTimeARequestCameInRanksOverAnEndAStageOrAWrite) {
  for (const char* start : {"EdgeStartTimestamp", "requestReceivedTimestamp", "StartUTC", "start_time"}) {
    EXPECT_EQ(time_rank(start), 2) << start;
  }
  for (const char* plain : {"ts", "timestamp", "time_local", "@timestamp", "msec"})
    EXPECT_EQ(time_rank(plain), 1) << plain;
  for (const char* late : {"EdgeEndTimestamp", "stageTimestamp", "_write_ts", "OriginResponseHTTPExpires"}) {
    EXPECT_EQ(time_rank(late), 0) << late;
  }
}

TEST(FieldNames, AKeyNamesWhoServedOrWasAskedNeverALevelAMessageAUriOrAnId) {
  const std::pair<const char*, int> who[] = {{"host", 3},           {"/request/host", 3},    {"ClientRequestHost", 3},
                                             {":authority", 3},     {"requested_domain", 3}, {"server_name", 1},
                                             {"service.name", 2},   {"upstream_cluster", 2}, {"RouterName", 2},
                                             {"controller", 2},     {"app_id", 2},           {"logger", 1},
                                             {"/user/username", 1}, {"user_id", 1},          {"ClientHost", 0},
                                             {"remote_host", 0},    {"user_ip", 0},          {"method", 0}};
  for (const auto& [name, rank] : who) EXPECT_EQ(who_rank(name), rank) << name;
  for (const char* never : {"level", "log.level", "severity", "msg", "message", "caller", "/request/uri", "path",
                            "userAgent", "referer", "uid", "auditID", "request_id", "trace_id", "ecs.version",
                            "OriginResponseHTTPLastModified", "OriginResponseHTTPExpires"}) {
    EXPECT_EQ(key_name(never), KeyName::kNever) << never;
  }
  EXPECT_EQ(key_name("app_id"), KeyName::kNamesWho) << "an id that names an app";
  EXPECT_EQ(key_name("user_id"), KeyName::kNamesWho);
  EXPECT_EQ(key_name("method"), KeyName::kNeutral);
  EXPECT_EQ(key_name("id.resp_h"), KeyName::kNeutral);
}

TEST(FieldNames, TheStatusTheClientGotRanksOverAnotherHopsOrACaches) {
  EXPECT_EQ(status_rank("EdgeResponseStatus"), 2);
  EXPECT_EQ(status_rank("DownstreamStatus"), 2);
  EXPECT_EQ(status_rank("status"), 1);
  EXPECT_EQ(status_rank("response"), 1);
  EXPECT_EQ(status_rank("OriginStatus"), 0);
  EXPECT_EQ(status_rank("CacheResponseStatus"), 0);
  EXPECT_EQ(status_rank("upstream_status"), 0);
}

TEST(FieldNames, ADurationsUnitIsItsLastWord) {
  const std::pair<const char*, const char*> units[] = {{"duration_s", "seconds"},
                                                       {"target_duration_s", "seconds"},
                                                       {"request_time_sec", "seconds"},
                                                       {"elapsed_seconds", "seconds"},
                                                       {"latency_ms", "milliseconds"},
                                                       {"took_msec", "milliseconds"},
                                                       {"ttfb_us", "microseconds"},
                                                       {"duration_usec", "microseconds"},
                                                       {"duration_micros", "microseconds"},
                                                       {"duration_ns", "nanoseconds"},
                                                       {"durationNanos", "nanoseconds"},
                                                       {"duration", ""},
                                                       {"request_time", ""},
                                                       {"durations", ""},
                                                       {"latency", ""}};
  for (const auto& [name, unit] : units) EXPECT_EQ(duration_unit_of_name(name), unit) << name;
}

TEST(FieldNames, BoundsAndPartsMeasureNoRequest) {
  for (const char* bound : {"target_duration_s", "timeout_ms", "max_latency", "latency_limit"}) {
    EXPECT_TRUE(limit_name(bound)) << bound;
  }
  EXPECT_FALSE(limit_name("duration_s"));
  for (const char* part : {"redis_duration_s", "db_duration_s", "gitaly_duration_s", "cpu_s", "mem_bytes",
                           "redis_write_bytes", "view_duration_s", "queue_duration_s"}) {
    EXPECT_TRUE(sub_part_name(part)) << part;
  }
  for (const char* whole : {"duration_s", "bytes_sent", "size", "request_time", "body_bytes_sent"}) {
    EXPECT_FALSE(sub_part_name(whole)) << whole;
  }
}

}  // namespace
}  // namespace logagg
