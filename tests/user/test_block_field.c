// SPDX-License-Identifier: MIT
/* test_block_field.c - bs_field_strings (trace/block_field.h), the arrays of
 * strings of the CONTEXT and END blocks: the texts, and an element of another
 * type refused with the message that names the block, the key and the element. */
#include <errno.h>
#include <json-c/json.h>

#include "test.h"
#include "trace/block_field.h"
#include "trace/context.h"
#include "trace/end.h"

static void test_strings(void)
{
	json_object *o =
	    json_tokener_parse("{\"a\":[\"x\",\"y\"],\"e\":[],\"n\":null,\"b\":[\"x\",2]}");
	char err[256] = "";
	const struct bs_block_field f = {"CONTEXT block", "", err, sizeof(err)};
	const char **v = NULL;
	size_t n = 99;

	CHECK_INT_EQ(bs_field_strings(&f, o, "a", BS_FIELD_REQUIRED, "a word", &v, &n), 1);
	CHECK_INT_EQ(n, 2);
	CHECK(v && !strcmp(v[0], "x") && !strcmp(v[1], "y"));
	free(v);
	v = NULL;
	CHECK_INT_EQ(bs_field_strings(&f, o, "e", BS_FIELD_REQUIRED, "a word", &v, &n), 1);
	CHECK_INT_EQ(n, 0);
	CHECK(v != NULL); /* one slot, so that absent and empty differ */
	free(v);
	v = NULL;
	n = 99;
	CHECK_INT_EQ(bs_field_strings(&f, o, "n", BS_FIELD_OPTIONAL, "a word", &v, &n), 0);
	CHECK(v == NULL && n == 99);
	CHECK_INT_EQ(bs_field_strings(&f, o, "z", BS_FIELD_REQUIRED, "a word", &v, &n), -EBADMSG);
	CHECK(v == NULL && n == 99);
	/* the array is handed over before the check: the caller frees it */
	CHECK_INT_EQ(bs_field_strings(&f, o, "b", BS_FIELD_REQUIRED, "a word", &v, &n), -EBADMSG);
	CHECK(v != NULL && n == 99);
	CHECK(!strcmp(err, "corrupted CONTEXT block: \"b\" holds a word that is not a string"));
	free(v);
	json_object_put(o);
}

/* the three arrays of the blocks, as the decoders report them */
static void test_blocks(void)
{
	json_object *ctx = json_tokener_parse(
	    "{\"command\":[\"./bench\",7],\"shard\":{\"index\":0,\"count\":1,\"benchmarks\":[1]}}");
	json_object *end = json_tokener_parse("{\"warnings\":[\"w\",false]}");
	struct bs_run_context c;
	struct bs_run_end e;
	char err[256] = "";

	CHECK_INT_EQ(bs_run_context_decode(ctx, &c, err, sizeof(err)), -EBADMSG);
	CHECK(
	    !strcmp(err, "corrupted CONTEXT block: \"command\" holds a word that is not a string"));
	json_object_object_del(ctx, "command");
	CHECK_INT_EQ(bs_run_context_decode(ctx, &c, err, sizeof(err)), -EBADMSG);
	CHECK(!strcmp(
	    err,
	    "corrupted CONTEXT block: \"shard.benchmarks\" holds a name that is not a string"));
	CHECK_INT_EQ(bs_run_end_decode(end, &e, err, sizeof(err)), -EBADMSG);
	CHECK(!strcmp(err,
		      "corrupted END block: \"warnings\" holds an element that is not a string"));
	json_object_put(ctx);
	json_object_put(end);
}

int main(void)
{
	RUN_TEST(test_strings);
	RUN_TEST(test_blocks);
	return test_summary("test_block_field");
}
