/* ... existing code ... */

/*
 * Print the version and when this binary was built.
 */
static void print_version(void)
{
	printf("tool %s\n", TOOL_VERSION);
	printf("built %s %s\n", __DATE__, __TIME__);
}

int main(int argc, char **argv)
/* ... existing code ... */
		case 'V':
			print_version();
			return 0;
/* ... existing code ... */
