/* What the two C reference servers (libevent_server.c, libevhtp_server.c) share: their command
 * line, the /hello reply of the contract, and the site under shared_www: a request path
 * resolved to a file the way the project servers resolve it, with the contract's Content-Type.
 * Each server keeps only its library's own HTTP work. */
#ifndef EVN_SITE_H
#define EVN_SITE_H

#include <stddef.h>
#include <sys/types.h>

#define HELLO_BODY "asdfghjkl;"
#define HELLO_TYPE "text/plain; charset=utf-8"

struct options {
    const char *host;
    int port;
    const char *root;
    int read_write; /* files read into memory and written, instead of sendfile() */
};

/* Parses --host H --port P --root DIR [--read-write]; on a mistake prints one line and exits 2. */
void parse_options(const char *name, int argc, char **argv, struct options *out);

/* Makes root the site's folder (its real path); exits 1 with one line when it is not one. */
void site_open(const char *name, const char *root);

/* A file of the site for a request path (percent-decoded here; the query already removed):
 * 0 and *fd, *size, *type set (the caller closes fd), or -1: not found (404). Like the project
 * servers: "/" and folders give their index.html; "..", empty or hidden segments (".x") and
 * anything but a regular file are not found. */
int site_file(const char *path, size_t path_len, int *fd, off_t *size, const char **type);

struct evbuffer;
/* Adds a file's bytes to an output buffer: by sendfile() when the connection writes it, or,
 * with read_write, read into memory and written (seed 003's two ways). Takes fd; 0 or -1. */
int site_add_file(struct evbuffer *out, int fd, off_t size, int read_write);

/* Sets TCP_NODELAY on a listening socket, which accepted connections inherit: a reply's head
 * and its sendfile()d body then go out without waiting for the client's delayed ACK (as the
 * other servers here, nginx's tcp_nodelay and Node's default, send them). Exits 1 on failure. */
void no_delay(const char *name, int listen_fd);

struct event_base;
struct evhttp;
/* Binds evhttp to --host and --port with the contract's listen backlog (contract.json
 * listen_backlog, as every server here) and TCP_NODELAY; on a mistake prints one line and exits
 * (2: a host that is no IPv4 address; 1: cannot listen). libevent_server.c and upstream.c. */
void listen_http(const char *name, struct event_base *base, struct evhttp *http, const struct options *o);

/* Runs the event loop until SIGTERM or SIGINT (SIGPIPE ignored: a client gone mid-reply is the
 * connection's error, not the server's end). */
void serve_until_stopped(struct event_base *base);

/* Prints the ready line the runner waits for ("<name> listening on http://H:P"). */
void say_ready(const char *name, const struct options *o);

#endif
