// What a field's name says it holds, for `logagg detect` (detect.cc): the
// name cut into words, and from those words whether a time field is the time
// a request came in, whether a field can name who served or was asked, what
// unit a duration is written in, and whether a number is a limit rather than
// a measurement. Names only: detect.cc weighs them with the values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace logagg {

// A field name's words, lower case: cut at every byte that is not a letter
// or digit and where case changes into a new word ("EdgeStartTimestamp":
// edge start timestamp; "OriginResponseHTTPExpires": origin response http
// expires; "/request/host": request host; "_write_ts": write ts).
std::vector<std::string> name_words(std::string_view name);

// How well a time field's name says it is the time a request came in: 2 for
// a start or receipt ("EdgeStartTimestamp", "requestReceivedTimestamp",
// "StartUTC"), 0 for an end, a stage, a write or an expiry
// ("EdgeEndTimestamp", "stageTimestamp", "_write_ts"), 1 for any other.
int time_rank(std::string_view name);

// What a field's name says of it as a key (--by-app) of a traffic report.
enum class KeyName {
  kNamesWho,  // who served or was asked: host, authority, service, route,
              // router, logger, user, cluster, site, domain, tenant, ...
  kNeutral,   // says neither
  kNever,     // a level, a message, a code location, a URI or path, a user
              // agent or referrer, a date, a version, or an id of one request,
              // connection, trace or event (uid, auditID, request_id),
              // unless it also names who (app_id, user_id)
};
KeyName key_name(std::string_view name);

// Of the names that say who (KeyName::kNamesWho), how closely, by their
// last word (before a last "name" or "id": service.name, app_id): 3 for the
// site asked (host, authority, server name, domain, site), 2 for what
// served it (service, app, cluster, route, router, backend, tenant,
// controller, handler, endpoint), 1 for
// the rest (logger, user, server); 0 for a name that does not say who
// (user_ip, host_port) or names the client's own (ClientHost, remote_host).
int who_rank(std::string_view name);

// How well a status field's name says it is what the client got: 2 for
// the edge's or downstream's (EdgeResponseStatus, DownstreamStatus), 0 for
// another hop's or a cache's (OriginStatus, upstream_status,
// CacheResponseStatus), 1 for any other.
int status_rank(std::string_view name);

// The unit a duration's name ends in: "seconds" (_s, _sec, _seconds),
// "milliseconds" (_ms, _msec, _millis), "microseconds" (_us, _usec,
// _micros), "nanoseconds" (_ns, _nsec, _nanos); "" if its last word names
// none.
std::string duration_unit_of_name(std::string_view name);

// Whether a numeric field's name says it is a bound, not a measurement
// (target_duration_s, timeout_ms, max_latency).
bool limit_name(std::string_view name);

// Whether a measure's name says it is of a part of the work or of the
// process, not of the request as a whole (redis_duration_s, db_duration_s,
// gitaly_duration_s, cpu_s, mem_bytes, redis_write_bytes).
bool sub_part_name(std::string_view name);

}  // namespace logagg
