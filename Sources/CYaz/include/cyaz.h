#ifndef CYAZ_H
#define CYAZ_H

#include <stddef.h>

// Copy cataloguing through YAZ's ZOOM API (Z39.50 and SRU alike), loaded when a target is first
// asked: the desk never needs libyaz otherwise.

// One target and the query it is asked.
typedef struct {
  // `host:port/database` for Z39.50; an http(s) address for SRU.
  const char *address;
  // 1: SRU by HTTP GET; 0: Z39.50.
  int sru;
  // Z39.50's preferred record syntax: "usmarc", "unimarc", "rusmarc"; ignored by SRU.
  const char *syntax;
  // SRU's record schema for MARCXML ("marcxml"; the DNB's "MARC21-xml"); ignored by Z39.50.
  const char *schema;
  // NULL when the target asks for no login.
  const char *user;
  const char *password;
  // PQF for Z39.50, CQL for SRU.
  const char *query;
} cyaz_target;

enum {
  CYAZ_ANSWERED = 0,
  CYAZ_CANNOT_CONNECT = 1,
  CYAZ_TIMED_OUT = 2,
  // The target answered with an error (a diagnostic), or the exchange failed.
  CYAZ_FAILED = 3,
  // What came back is no Z39.50 or SRU answer (a web page, another protocol).
  CYAZ_UNREADABLE = 4,
};

// How one target's search ended.
typedef struct {
  int status;
  // Hits the target reported (it may hold more records than it sent).
  long hits;
  char message[300];
} cyaz_outcome;

// A record as ISO 2709 bytes: as the target sent it (Z39.50), or made by YAZ from the MARCXML an
// SRU target sent (then UTF-8, `from_xml` 1). `broken` 1: the target sent a record YAZ could not
// read; `bytes` then hold what it sent.
typedef struct {
  int target;
  int from_xml;
  int broken;
  unsigned char *bytes;
  size_t length;
} cyaz_record;

// Searches every target at once, waiting at most `timeout_seconds` for each exchange; fills one
// outcome per target and a list of up to `max_records` records per target (`cyaz_free`).
// Returns 0, or -1 with `message` (300 bytes) when YAZ cannot be loaded.
int cyaz_search(const cyaz_target *targets, size_t count, int max_records, int timeout_seconds,
                cyaz_outcome *outcomes, cyaz_record **records, size_t *record_count, char *message);

void cyaz_free(cyaz_record *records, size_t count);

#endif
