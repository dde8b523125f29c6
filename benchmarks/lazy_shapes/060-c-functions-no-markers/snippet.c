void buffer_reset(struct buffer *buf)
{
	buf->len = 0;
	if (buf->capacity > 1024 * 1024) {
		buffer_free(buf);
		return;
	}
	if (buf->data)
		buf->data[0] = '\0';
}

char *buffer_detach(struct buffer *buf)
{
	char *data = buf->data ? buf->data : strdup("");

	buffer_init(buf);
	return data;
}
