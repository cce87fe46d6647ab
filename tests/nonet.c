/*
 * nonet.c - LD_PRELOAD shim proving a run opens no network connection:
 * any socket() or connect() aborts the process.
 */
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int socket(int domain, int type, int protocol)
{
	static const char msg[] = "nonet: socket() called\n";

	(void)domain;
	(void)type;
	(void)protocol;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	(void)fd;
	(void)addr;
	(void)len;
	abort();
}
