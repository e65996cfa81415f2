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

#endif
