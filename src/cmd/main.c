/*
 * main.c - the process entry point; the command table is in commands.c.
 */
#include "cmd/commands.h"

int main(int argc, char **argv)
{
	return commands_main(argc, argv);
}
