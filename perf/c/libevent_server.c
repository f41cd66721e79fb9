/* libevent's evhttp as a reference server: one event loop in one thread, as seed 000's
 * bench_http and seed 004's ahttpd.ev ran it. It answers GET /hello as the contract says and
 * serves shared_www (site.c); everything HTTP (parsing, keep-alive, Connection: close, Date,
 * Content-Length, HEAD) is evhttp's own. Written for this project.
 * Usage: libevent_server --host H --port P --root DIR [--read-write] */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "site.h"

static const char *NAME = "libevent_server";
static struct options opts;

static void reply(struct evhttp_request *req, int status, const char *reason, const char *type, struct evbuffer *body) {
    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", type);
    if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
        /* A HEAD reply says the length GET would send, and sends no body. */
        char length[24];
        snprintf(length, sizeof length, "%zu", evbuffer_get_length(body));
        evhttp_add_header(headers, "Content-Length", length);
        evbuffer_drain(body, evbuffer_get_length(body));
    }
    evhttp_send_reply(req, status, reason, body);
}

static void handle(struct evhttp_request *req, void *arg) {
    (void)arg;
    const char *path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req));
    struct evbuffer *body = evhttp_request_get_output_buffer(req);
    if (path && strcmp(path, "/hello") == 0) {
        evbuffer_add(body, HELLO_BODY, sizeof HELLO_BODY - 1);
        reply(req, 200, "OK", HELLO_TYPE, body);
        return;
    }
    int fd;
    off_t size;
    const char *type;
    if (!path || site_file(path, strlen(path), &fd, &size, &type) != 0) {
        evbuffer_add(body, "Not Found\n", 10);
        reply(req, 404, "Not Found", "text/plain; charset=utf-8", body);
        return;
    }
    if (site_add_file(body, fd, size, opts.read_write) != 0) {
        evhttp_send_error(req, 500, "Internal Server Error");
        return;
    }
    reply(req, 200, "OK", type, body);
}

int main(int argc, char **argv) {
    parse_options(NAME, argc, argv, &opts);
    site_open(NAME, opts.root);
    struct event_base *base = event_base_new();
    struct evhttp *http = base ? evhttp_new(base) : NULL;
    if (!http) {
        fprintf(stderr, "%s: cannot start libevent\n", NAME);
        return 1;
    }
    evhttp_set_allowed_methods(http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD);
    evhttp_set_gencb(http, handle, NULL);
    listen_http(NAME, base, http, &opts);
    say_ready(NAME, &opts);
    serve_until_stopped(base);
    evhttp_free(http);
    event_base_free(base);
    return 0;
}
