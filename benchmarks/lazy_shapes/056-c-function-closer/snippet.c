/* ... */

int buffer_append(struct buffer *buf, const char *data, size_t len)
{
	if (len == 0)
		return 0;
	if (len > (size_t)-1 - buf->len - 1)
		return -1;
	if (buffer_grow(buf, buf->len + len + 1) < 0)
		return -1;
	memcpy(buf->data + buf->len, data, len);
	buf->len += len;
	buf->data[buf->len] = '\0';
	return 0;
}

/* ... */
