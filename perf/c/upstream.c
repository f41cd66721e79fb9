/* The upstream HTTP service behind the project servers' /upstream route: libevent's
 * evhttp answering GET /delay?ms=N with "waited N ms\n" after N ms on a timer, exactly the
 * bytes the project servers' own /delay answers, so that /upstream?ms=N and /delay?ms=N can be
 * compared byte for byte and the difference between them is the HTTP client's hop alone. It
 * is written in C so that its own CPU per request (a few microseconds) stays small beside the
 * servers' it is measured against; the runner measures it all the same (perf/lib/hosts/backends.js).
 * Usage: upstream --host H --port P */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"

static const char *NAME = "upstream";
static const long DELAY_MAX_MS = 10000; /* contract.json delay_max_ms */

/* A reply waiting on its timer. Kept in a list so that a connection that closes first can
 * cancel its own: libevent frees a closed connection's requests, and a timer that fired on one
 * afterwards would write to freed memory. */
struct pending {
    struct evhttp_request *req;
    struct evhttp_connection *conn;
    struct event *timer;
    long ms;
    struct pending *next;
};
static struct pending *pending_list;
static struct event_base *base;

static void unlink_pending(struct pending *p) {
    for (struct pending **at = &pending_list; *at; at = &(*at)->next) {
        if (*at == p) {
            *at = p->next;
            return;
        }
    }
}

static void reply_text(struct evhttp_request *req, int status, const char *reason, const char *text) {
    struct evbuffer *body = evhttp_request_get_output_buffer(req);
    evbuffer_add(body, text, strlen(text));
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type", "text/plain; charset=utf-8");
    evhttp_send_reply(req, status, reason, body);
}

static void on_timer(evutil_socket_t fd, short events, void *arg) {
    (void)fd;
    (void)events;
    struct pending *p = arg;
    unlink_pending(p);
    char text[48];
    snprintf(text, sizeof text, "waited %ld ms\n", p->ms);
    reply_text(p->req, 200, "OK", text);
    event_free(p->timer);
    free(p);
}

/* A client connection closed: its waiting replies are dropped with it. */
static void on_close(struct evhttp_connection *conn, void *arg) {
    (void)arg;
    for (struct pending **at = &pending_list; *at;) {
        struct pending *p = *at;
        if (p->conn != conn) {
            at = &p->next;
            continue;
        }
        *at = p->next;
        event_free(p->timer);
        free(p);
    }
}

/* The ms of a query: an integer 0..DELAY_MAX_MS, else -1. */
static long delay_ms(const char *query) {
    struct evkeyvalq params;
    if (!query || evhttp_parse_query_str(query, &params) != 0) return -1;
    const char *value = evhttp_find_header(&params, "ms");
    long ms = -1;
    if (value && *value && strlen(value) <= 5 && strspn(value, "0123456789") == strlen(value)) {
        ms = strtol(value, NULL, 10);
        if (ms > DELAY_MAX_MS) ms = -1;
    }
    evhttp_clear_headers(&params);
    return ms;
}

static void handle(struct evhttp_request *req, void *arg) {
    (void)arg;
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *path = evhttp_uri_get_path(uri);
    if (!path || strcmp(path, "/delay") != 0) {
        reply_text(req, 404, "Not Found", "Not Found\n");
        return;
    }
    long ms = delay_ms(evhttp_uri_get_query(uri));
    if (ms < 0) {
        reply_text(req, 400, "Bad Request", "Bad Request\n");
        return;
    }
    struct pending *p = calloc(1, sizeof *p);
    if (!p) {
        evhttp_send_error(req, 500, "Internal Server Error");
        return;
    }
    p->req = req;
    p->conn = evhttp_request_get_connection(req);
    p->ms = ms;
    p->timer = evtimer_new(base, on_timer, p);
    evhttp_connection_set_closecb(p->conn, on_close, NULL);
    struct timeval wait = { ms / 1000, (ms % 1000) * 1000 };
    evtimer_add(p->timer, &wait);
    p->next = pending_list;
    pending_list = p;
}

int main(int argc, char **argv) {
    struct options opts;
    parse_options(NAME, argc, argv, &opts);
    base = event_base_new();
    struct evhttp *http = base ? evhttp_new(base) : NULL;
    if (!http) {
        fprintf(stderr, "%s: cannot start libevent\n", NAME);
        return 1;
    }
    evhttp_set_allowed_methods(http, EVHTTP_REQ_GET);
    evhttp_set_gencb(http, handle, NULL);
    /* Idle keep-alive connections stay open as long as a run's pool may leave them idle. */
    evhttp_set_timeout(http, 120);
    listen_http(NAME, base, http, &opts);
    printf("%s listening on http://%s:%d\n", NAME, opts.host, opts.port);
    fflush(stdout);
    serve_until_stopped(base);
    evhttp_free(http);
    event_base_free(base);
    return 0;
}
