#include <unistd.h>
/* ... existing code ... */
	return ferror(fp) ? -1 : 0;
}

int buffer_read_fd(struct buffer *buf, int fd)
{
	char chunk[4096];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		if (buffer_append(buf, chunk, (size_t)n) < 0)
			return -1;
	}
	return n < 0 ? -1 : 0;
}
