#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "version.h"

struct options {
	const char *output;
	int verbose;
	int count_only;
};

struct command {
	const char *name;
	int (*run)(const struct options *opts, int argc, char **argv);
	const char *help;
};

static int cmd_cat(const struct options *opts, int argc, char **argv);
static int cmd_count(const struct options *opts, int argc, char **argv);

static const struct command commands[] = {
	{ "cat", cmd_cat, "print files one after the other" },
	{ "count", cmd_count, "count the lines of files" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	const struct command *cmd;

	fprintf(out, "usage: tool [-v] [-o FILE] COMMAND [FILE...]\n\ncommands:\n");
	for (cmd = commands; cmd->name; cmd++)
		fprintf(out, "  %-8s %s\n", cmd->name, cmd->help);
}

static int read_all(const char *path, struct buffer *buf)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	int ret;

	if (!fp) {
		fprintf(stderr, "tool: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = buffer_read_file(buf, fp);
	if (fp != stdin)
		fclose(fp);
	return ret;
}

static int cmd_cat(const struct options *opts, int argc, char **argv)
{
	struct buffer buf;
	int i;

	buffer_init(&buf);
	for (i = 0; i < argc; i++) {
		if (read_all(argv[i], &buf) < 0) {
			buffer_free(&buf);
			return 1;
		}
	}
	fwrite(buf.data, 1, buf.len, stdout);
	buffer_free(&buf);
	return 0;
}

static int cmd_count(const struct options *opts, int argc, char **argv)
{
	struct buffer buf;
	size_t lines = 0, i;
	int a;

	buffer_init(&buf);
	for (a = 0; a < argc; a++) {
		if (read_all(argv[a], &buf) < 0) {
			buffer_free(&buf);
			return 1;
		}
	}
	for (i = 0; i < buf.len; i++)
		if (buf.data[i] == '\n')
			lines++;
	printf("%zu\n", lines);
	buffer_free(&buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct options opts = { 0 };
	const struct command *cmd;
	int c;

	while ((c = getopt(argc, argv, "vo:hV")) != -1) {
		switch (c) {
		case 'v':
			opts.verbose = 1;
			break;
		case 'o':
			opts.output = optarg;
			break;
		case 'V':
			printf("tool %s\n", TOOL_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	for (cmd = commands; cmd->name; cmd++)
		if (!strcmp(cmd->name, argv[optind]))
			return cmd->run(&opts, argc - optind - 1, argv + optind + 1);
	fprintf(stderr, "tool: unknown command '%s'\n", argv[optind]);
	usage(stderr);
	return 2;
}
