/* The result record as a cJSON tree, for the code that builds on it inside
 * the library (the call envelope takes its meta from it, not by printing
 * and re-parsing the record). Internal: cJSON is not part of the public
 * headers. Parent side, after the sandbox. */
#ifndef TOOLCELL_RECORD_TREE_H
#define TOOLCELL_RECORD_TREE_H

#include <cjson/cJSON.h>

#include "toolcell/record.h"

/* The record as a cJSON tree (the caller deletes it), or NULL on
 * allocation failure: what tc_record_to_json prints. */
cJSON *tc_record_to_cjson(const struct tc_outcome *o);

/* The parts of a record that seldom change from one call to the next
 * (unknown, limits, provenance), each as printed for the last record
 * built with this memo and what it was built from: a record whose part
 * comes from the same bytes takes that text, raw, instead of building the
 * part again (a served call's record; byte for byte what it would print).
 * Zeroed to start; not shared between threads. */
enum tc_record_part {
	TC_RECORD_PART_UNKNOWN,
	TC_RECORD_PART_LIMITS,
	TC_RECORD_PART_PROVENANCE,
	TC_RECORD_PART__MAX
};

struct tc_record_memo {
	struct tc_record_memo_part {
		char *key, *text;
		size_t len;
	} part[TC_RECORD_PART__MAX];
};

/* tc_record_to_cjson, its parts from memo where they are the same (memo
 * NULL: none), the memo updated with the parts it built. */
cJSON *tc_record_to_cjson_memo(const struct tc_outcome *o, struct tc_record_memo *memo);
void tc_record_memo_release(struct tc_record_memo *memo);

#endif
