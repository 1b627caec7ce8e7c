#include "cyaz.h"

#include <lazy_library.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaz/log.h>
#include <yaz/marcdisp.h>
#include <yaz/wrbuf.h>
#include <yaz/zoom.h>

// libyaz is loaded at the first copy-cataloguing search; libxml2 (which libyaz links) reads the
// MARCXML an SRU target sends.
#define YAZ_FUNCTIONS(X)                                                                           \
  X(ZOOM_options_create) X(ZOOM_options_set) X(ZOOM_options_destroy) X(ZOOM_connection_create)    \
  X(ZOOM_connection_connect) X(ZOOM_connection_search) X(ZOOM_connection_error_x)                 \
  X(ZOOM_connection_destroy) X(ZOOM_event) X(ZOOM_query_create) X(ZOOM_query_prefix)             \
  X(ZOOM_query_cql) X(ZOOM_query_destroy) X(ZOOM_resultset_size) X(ZOOM_resultset_record_immediate) \
  X(ZOOM_resultset_destroy) X(ZOOM_record_get) X(yaz_marc_create) X(yaz_marc_destroy)             \
  X(yaz_marc_read_xml) X(yaz_marc_write_iso2709) X(yaz_marc_modify_leader) X(wrbuf_alloc)         \
  X(wrbuf_destroy) X(yaz_log_init_level)
#define XML_FUNCTIONS(X) X(xmlReadMemory) X(xmlDocGetRootElement) X(xmlFreeDoc)
#define FIELD(name) __typeof__(name) *name;
#define NAME(name) #name,
static struct { YAZ_FUNCTIONS(FIELD) } yaz;
static const char *const yaz_names[] = {YAZ_FUNCTIONS(NAME)};
static lazy_library libyaz = LAZY_LIBRARY("libyaz.so.5", yaz_names, yaz);
LAZY_FUNCTIONS_MATCH(yaz_names, yaz);
static struct { XML_FUNCTIONS(FIELD) } xml;
static const char *const xml_names[] = {XML_FUNCTIONS(NAME)};
static lazy_library libxml = LAZY_LIBRARY("libxml2.so.2", xml_names, xml);
LAZY_FUNCTIONS_MATCH(xml_names, xml);

// The ISO 2709 form of a MARCXML record, its leader saying UTF-8 (position 9 `a`): what the
// XML parser gives is Unicode whatever the document's own encoding was. 0 when it is no MARCXML.
static int iso2709_from_xml(const char *text, int length, cyaz_record *record) {
  xmlDocPtr doc = xml.xmlReadMemory(text, length, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (doc == NULL) return 0;
  int done = 0;
  yaz_marc_t marc = yaz.yaz_marc_create();
  if (yaz.yaz_marc_read_xml(marc, xml.xmlDocGetRootElement(doc)) == 0) {
    yaz.yaz_marc_modify_leader(marc, 9, "a");
    WRBUF buffer = yaz.wrbuf_alloc();
    if (yaz.yaz_marc_write_iso2709(marc, buffer) == 0 && wrbuf_len(buffer) > 0) {
      record->bytes = malloc(wrbuf_len(buffer));
      if (record->bytes != NULL) {
        memcpy(record->bytes, wrbuf_buf(buffer), wrbuf_len(buffer));
        record->length = wrbuf_len(buffer);
        done = 1;
      }
    }
    yaz.wrbuf_destroy(buffer);
  }
  yaz.yaz_marc_destroy(marc);
  xml.xmlFreeDoc(doc);
  return done;
}

static void outcome_of(ZOOM_connection connection, ZOOM_resultset results, cyaz_outcome *outcome) {
  const char *text = "", *detail = "", *set = "";
  int code = yaz.ZOOM_connection_error_x(connection, &text, &detail, &set);
  if (code == 0) {
    outcome->status = CYAZ_ANSWERED;
    outcome->hits = results != NULL ? (long)yaz.ZOOM_resultset_size(results) : 0;
    return;
  }
  outcome->status = code == ZOOM_ERROR_CONNECT ? CYAZ_CANNOT_CONNECT
                    : code == ZOOM_ERROR_TIMEOUT ? CYAZ_TIMED_OUT
                    : code == ZOOM_ERROR_DECODE  ? CYAZ_UNREADABLE
                                                 : CYAZ_FAILED;
  snprintf(outcome->message, sizeof outcome->message, "%s%s%s", text ? text : "",
           detail && *detail ? ": " : "", detail ? detail : "");
}

int cyaz_search(const cyaz_target *targets, size_t count, int max_records, int timeout_seconds,
                cyaz_outcome *outcomes, cyaz_record **records, size_t *record_count, char *message) {
  *records = NULL;
  *record_count = 0;
  const char *failure = lazy_load(&libyaz);
  if (failure == NULL) failure = lazy_load(&libxml);
  if (failure != NULL) {
    snprintf(message, 300, "YAZ cannot be loaded (%s): install it (apt-get install libyaz5)", failure);
    return -1;
  }
  // YAZ logs to the standard error by default, which is the desk's screen: it says nothing.
  yaz.yaz_log_init_level(0);
  if (count == 0) return 0;
  ZOOM_connection *connections = calloc(count, sizeof *connections);
  ZOOM_resultset *results = calloc(count, sizeof *results);
  ZOOM_query *queries = calloc(count, sizeof *queries);
  cyaz_record *found = calloc(count * (size_t)max_records + 1, sizeof *found);
  if (connections == NULL || results == NULL || queries == NULL || found == NULL) {
    free(connections), free(results), free(queries), free(found);
    snprintf(message, 300, "out of memory");
    return -1;
  }
  char timeout[16], wanted[16];
  snprintf(timeout, sizeof timeout, "%d", timeout_seconds);
  snprintf(wanted, sizeof wanted, "%d", max_records);
  for (size_t i = 0; i < count; i++) {
    memset(&outcomes[i], 0, sizeof outcomes[i]);
    ZOOM_options options = yaz.ZOOM_options_create();
    // Every connection waits in ZOOM_event below: the targets are asked together.
    yaz.ZOOM_options_set(options, "async", "1");
    yaz.ZOOM_options_set(options, "timeout", timeout);
    // The records come with the search's answer (piggy-back), full records.
    yaz.ZOOM_options_set(options, "count", wanted);
    yaz.ZOOM_options_set(options, "elementSetName", "F");
    if (targets[i].sru) {
      yaz.ZOOM_options_set(options, "sru", "get");
      yaz.ZOOM_options_set(options, "sru_version", "1.2");
      yaz.ZOOM_options_set(options, "schema", targets[i].schema != NULL ? targets[i].schema : "marcxml");
      yaz.ZOOM_options_set(options, "preferredRecordSyntax", "xml");
    } else {
      yaz.ZOOM_options_set(options, "preferredRecordSyntax", targets[i].syntax);
    }
    if (targets[i].user != NULL) yaz.ZOOM_options_set(options, "user", targets[i].user);
    if (targets[i].password != NULL) yaz.ZOOM_options_set(options, "password", targets[i].password);
    connections[i] = yaz.ZOOM_connection_create(options);
    yaz.ZOOM_options_destroy(options);
    yaz.ZOOM_connection_connect(connections[i], targets[i].address, 0);
    queries[i] = yaz.ZOOM_query_create();
    int bad = targets[i].sru ? yaz.ZOOM_query_cql(queries[i], targets[i].query)
                             : yaz.ZOOM_query_prefix(queries[i], targets[i].query);
    if (bad) {
      outcomes[i].status = CYAZ_FAILED;
      snprintf(outcomes[i].message, sizeof outcomes[i].message, "the query cannot be written: %s",
               targets[i].query);
      continue;
    }
    results[i] = yaz.ZOOM_connection_search(connections[i], queries[i]);
  }
  while (yaz.ZOOM_event((int)count, connections) != 0) {
  }
  size_t total = 0;
  for (size_t i = 0; i < count; i++) {
    if (outcomes[i].status == CYAZ_FAILED && outcomes[i].message[0] != '\0') continue;
    outcome_of(connections[i], results[i], &outcomes[i]);
    if (outcomes[i].status != CYAZ_ANSWERED) continue;
    long size = outcomes[i].hits < max_records ? outcomes[i].hits : max_records;
    for (long position = 0; position < size; position++) {
      ZOOM_record record = yaz.ZOOM_resultset_record_immediate(results[i], (size_t)position);
      if (record == NULL) continue;
      int length = 0;
      const char *raw = yaz.ZOOM_record_get(record, "raw", &length);
      if (raw == NULL || length <= 0) continue;
      cyaz_record *entry = &found[total];
      memset(entry, 0, sizeof *entry);
      entry->target = (int)i;
      const char *syntax = yaz.ZOOM_record_get(record, "syntax", NULL);
      int is_xml = targets[i].sru || (syntax != NULL && strstr(syntax, "XML") != NULL) || raw[0] == '<';
      if (is_xml) {
        entry->from_xml = 1;
        if (iso2709_from_xml(raw, length, entry)) {
          total++;
          continue;
        }
        entry->broken = 1;
      }
      entry->bytes = malloc((size_t)length);
      if (entry->bytes == NULL) continue;
      memcpy(entry->bytes, raw, (size_t)length);
      entry->length = (size_t)length;
      total++;
    }
  }
  for (size_t i = 0; i < count; i++) {
    if (results[i] != NULL) yaz.ZOOM_resultset_destroy(results[i]);
    if (queries[i] != NULL) yaz.ZOOM_query_destroy(queries[i]);
    yaz.ZOOM_connection_destroy(connections[i]);
  }
  free(connections), free(results), free(queries);
  *records = found;
  *record_count = total;
  return 0;
}

void cyaz_free(cyaz_record *records, size_t count) {
  if (records == NULL) return;
  for (size_t i = 0; i < count; i++) free(records[i].bytes);
  free(records);
}
