#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer.h"

#define BUFFER_MIN_CAPACITY 64

static int buffer_grow(struct buffer *buf, size_t needed)
{
	size_t capacity = buf->capacity ? buf->capacity : BUFFER_MIN_CAPACITY;
	char *data;

	while (capacity < needed)
		capacity *= 2;
	if (capacity == buf->capacity)
		return 0;
	data = realloc(buf->data, capacity);
	if (!data)
		return -1;
	buf->data = data;
	buf->capacity = capacity;
	return 0;
}

void buffer_init(struct buffer *buf)
{
	buf->data = NULL;
	buf->len = 0;
	buf->capacity = 0;
}

void buffer_free(struct buffer *buf)
{
	free(buf->data);
	buffer_init(buf);
}

int buffer_append(struct buffer *buf, const char *data, size_t len)
{
	if (buffer_grow(buf, buf->len + len + 1) < 0)
		return -1;
	memcpy(buf->data + buf->len, data, len);
	buf->len += len;
	buf->data[buf->len] = '\0';
	return 0;
}

int buffer_append_str(struct buffer *buf, const char *str)
{
	return buffer_append(buf, str, strlen(str));
}

int buffer_printf(struct buffer *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (buffer_grow(buf, buf->len + (size_t)n + 1) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	buf->len += (size_t)n;
	return 0;
}

void buffer_reset(struct buffer *buf)
{
	buf->len = 0;
	if (buf->data)
		buf->data[0] = '\0';
}

char *buffer_detach(struct buffer *buf)
{
	char *data = buf->data;

	buffer_init(buf);
	return data;
}

int buffer_read_file(struct buffer *buf, FILE *fp)
{
	char chunk[4096];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		if (buffer_append(buf, chunk, n) < 0)
			return -1;
	}
	return ferror(fp) ? -1 : 0;
}
