static int cmd_count(const struct options *opts, int argc, char **argv);
static int cmd_head(const struct options *opts, int argc, char **argv);

static const struct command commands[] = {
	/* ... existing commands ... */
	{ "count", cmd_count, "count the lines of files" },
	{ "head", cmd_head, "print the first ten lines of files" },
	{ NULL, NULL, NULL },
};

/* ... existing code ... */
	printf("%zu\n", lines);
	buffer_free(&buf);
	return 0;
}

static int cmd_head(const struct options *opts, int argc, char **argv)
{
	struct buffer buf;
	size_t i, lines = 0;
	int a;

	buffer_init(&buf);
	for (a = 0; a < argc; a++) {
		if (read_all(argv[a], &buf) < 0) {
			buffer_free(&buf);
			return 1;
		}
	}
	for (i = 0; i < buf.len && lines < 10; i++) {
		putchar(buf.data[i]);
		if (buf.data[i] == '\n')
			lines++;
	}
	buffer_free(&buf);
	return 0;
}

int main(int argc, char **argv)
/* ... existing code ... */
