/* ... existing code ... */
	buffer_free(&buf);
	if (opts->verbose)
		fprintf(stderr, "tool: done\n");
	return 0;
}
/* ... existing code ... */
