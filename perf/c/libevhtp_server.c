/* libevhtp as a reference server: one event loop in one thread (no evhtp threads), as seed
 * 000's test.c ran it. It answers GET /hello as the contract says and serves shared_www
 * (site.c); parsing, keep-alive and Content-Length are libevhtp's own; it sends no Date, as
 * libevhtp itself does not. Written for this project.
 * Usage: libevhtp_server --host H --port P --root DIR [--read-write] */
#include <evhtp/evhtp.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/listener.h>

#include <stdio.h>
#include <string.h>

#include "site.h"

static const char *NAME = "libevhtp_server";
static struct options opts;

static void header(evhtp_request_t *req, const char *key, const char *value) {
    evhtp_headers_add_header(req->headers_out, evhtp_header_new(key, value, 0, 1));
}

/* A HEAD reply has GET's headers and no body: its length is set here, as GET's would be. */
static void send_reply(evhtp_request_t *req, evhtp_res status, const char *type) {
    header(req, "Content-Type", type);
    if (evhtp_request_get_method(req) == htp_method_HEAD) {
        char length[24];
        snprintf(length, sizeof length, "%zu", evbuffer_get_length(req->buffer_out));
        header(req, "Content-Length", length);
        evbuffer_drain(req->buffer_out, evbuffer_get_length(req->buffer_out));
    }
    evhtp_send_reply(req, status);
}

static void handle(evhtp_request_t *req, void *arg) {
    (void)arg;
    htp_method method = evhtp_request_get_method(req);
    if (method != htp_method_GET && method != htp_method_HEAD) {
        header(req, "Allow", "GET, HEAD");
        evbuffer_add(req->buffer_out, "Method Not Allowed\n", 19);
        send_reply(req, 405, "text/plain; charset=utf-8");
        return;
    }
    const char *path = req->uri && req->uri->path ? req->uri->path->full : NULL;
    if (path && strcmp(path, "/hello") == 0) {
        evbuffer_add(req->buffer_out, HELLO_BODY, sizeof HELLO_BODY - 1);
        send_reply(req, EVHTP_RES_OK, HELLO_TYPE);
        return;
    }
    int fd;
    off_t size;
    const char *type;
    if (!path || site_file(path, strlen(path), &fd, &size, &type) != 0) {
        evbuffer_add(req->buffer_out, "Not Found\n", 10);
        send_reply(req, EVHTP_RES_NOTFOUND, "text/plain; charset=utf-8");
        return;
    }
    if (site_add_file(req->buffer_out, fd, size, opts.read_write) != 0) {
        evhtp_send_reply(req, EVHTP_RES_SERVERR);
        return;
    }
    send_reply(req, EVHTP_RES_OK, type);
}

int main(int argc, char **argv) {
    parse_options(NAME, argc, argv, &opts);
    site_open(NAME, opts.root);
    struct event_base *base = event_base_new();
    evhtp_t *htp = base ? evhtp_new(base, NULL) : NULL;
    if (!htp) {
        fprintf(stderr, "%s: cannot start libevhtp\n", NAME);
        return 1;
    }
    evhtp_set_gencb(htp, handle, NULL);
    /* The contract's listen backlog (contract.json listen_backlog), as every server here. */
    if (evhtp_bind_socket(htp, opts.host, (uint16_t)opts.port, 511) != 0) {
        fprintf(stderr, "%s: cannot listen on %s:%d\n", NAME, opts.host, opts.port);
        return 1;
    }
    no_delay(NAME, evconnlistener_get_fd(htp->server));
    say_ready(NAME, &opts);
    serve_until_stopped(base);
    evhtp_unbind_socket(htp);
    evhtp_free(htp);
    event_base_free(base);
    return 0;
}
