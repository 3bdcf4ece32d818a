/* routemap's own load generator, for what wrk's Lua cannot do (it keeps no per-connection state):
 *
 *   loadgen enroll PORT CODE COUNT            enrolls COUNT devices, prints one token a line
 *   loadgen bills PORT TOKEN COUNT [CONNS]    opens COUNT bills for TOKEN's device, prints one id a line
 *   loadgen cycles PORT TOKENS_FILE CONNS SECONDS
 *       CONNS keep-alive connections, each on its own device token (line i of TOKENS_FILE), each
 *       running order cycles for SECONDS: new bill, 3 items, checkout, pay. New bill, checkout and
 *       pay carry an Idempotency-Key, as the app's screen actions do. Prints one line:
 *       BENCH_RESULT requests=.. cycles=.. duration_us=.. rps=CYCLES/S p50_us=.. p99_us=.. (cycle
 *       latency) pay_p50_us=.. pay_p99_us=.. errors_status=.. errors_socket=..
 *
 * Plain blocking sockets, one thread per connection, HTTP/1.1 keep-alive to 127.0.0.1.
 * Build: gcc -O2 -pthread loadgen.c -o loadgen                                                   */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void die(const char *what) {
  fprintf(stderr, "loadgen: %s\n", what);
  exit(1);
}

/* One keep-alive connection and its receive buffer. */
typedef struct {
  int fd;
  char *buf;
  size_t cap, len;
  int status;
  const char *body; /* into buf, valid until the next request */
  size_t body_len;
} conn_t;

static int conn_open(conn_t *c) {
  c->fd = socket(AF_INET, SOCK_STREAM, 0);
  if (c->fd < 0) return -1;
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct timeval tv = {.tv_sec = 30};
  setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  if (connect(c->fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(c->fd);
    c->fd = -1;
    return -1;
  }
  c->len = 0;
  return 0;
}

static void conn_close(conn_t *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  c->len = 0;
}

/* Case-insensitive search for header NAME in the header block [h, end); its value as a number. */
static long header_number(const char *h, const char *end, const char *name, int *found) {
  size_t n = strlen(name);
  for (const char *p = h; p + n < end; p++) {
    if ((p == h || p[-1] == '\n') && strncasecmp(p, name, n) == 0 && p[n] == ':') {
      *found = 1;
      return strtol(p + n + 1, NULL, 10);
    }
  }
  *found = 0;
  return 0;
}

static int header_has(const char *h, const char *end, const char *needle) {
  size_t n = strlen(needle);
  for (const char *p = h; p + n <= end; p++)
    if (strncasecmp(p, needle, n) == 0) return 1;
  return 0;
}

/* Sends one request and reads its answer into c->status / c->body. Returns 0, or -1 on a socket
 * error (the connection is then closed; the next request reconnects). */
static int http(conn_t *c, const char *method, const char *path, const char *token, const char *key,
                const char *body) {
  if (c->fd < 0 && conn_open(c) != 0) return -1;
  char req[4096];
  size_t blen = body ? strlen(body) : 0;
  int n = snprintf(req, sizeof req,
                   "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s%s%s%sContent-Length: %zu\r\n\r\n%s", method, path,
                   token ? "Authorization: Bearer " : "", token ? token : "", token ? "\r\n" : "",
                   key ? "Idempotency-Key: " : "", key ? key : "", key ? "\r\n" : "", blen, body ? body : "");
  if (n <= 0 || (size_t)n >= sizeof req) die("request too long");
  /* Content-Type only with a body. */
  char full[4200];
  if (body) {
    char *eol = strstr(req, "\r\n") + 2;
    size_t head = (size_t)(eol - req);
    memcpy(full, req, head);
    int m = snprintf(full + head, sizeof full - head, "Content-Type: application/json\r\n%s", eol);
    n = (int)head + m;
  } else {
    memcpy(full, req, (size_t)n + 1);
  }
  for (size_t sent = 0; sent < (size_t)n;) {
    ssize_t w = send(c->fd, full + sent, (size_t)n - sent, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { conn_close(c); return -1; }
    sent += (size_t)w;
  }
  c->len = 0;
  size_t head_end = 0, need = 0;
  int close_after = 0;
  for (;;) {
    if (c->cap - c->len < 16384) {
      c->cap = c->cap ? c->cap * 2 : 65536;
      c->buf = realloc(c->buf, c->cap);
      if (!c->buf) die("out of memory");
    }
    ssize_t r = recv(c->fd, c->buf + c->len, c->cap - c->len - 1, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) { conn_close(c); return -1; }
    c->len += (size_t)r;
    c->buf[c->len] = 0;
    if (!head_end) {
      char *e = strstr(c->buf, "\r\n\r\n");
      if (!e) continue;
      head_end = (size_t)(e - c->buf) + 4;
      if (strncmp(c->buf, "HTTP/1.", 7) != 0) { conn_close(c); return -1; }
      c->status = atoi(c->buf + 9);
      int found;
      long cl = header_number(c->buf, e, "Content-Length", &found);
      if (!found) { conn_close(c); return -1; } /* chunked answers are not expected here */
      need = head_end + (size_t)cl;
      close_after = header_has(c->buf, e, "Connection: close");
    }
    if (c->len >= need) break;
  }
  c->body = c->buf + head_end;
  c->body_len = need - head_end;
  c->buf[need] = 0;
  if (close_after) {
    /* Keep the answer readable: the buffer stays, only the socket goes. */
    close(c->fd);
    c->fd = -1;
  }
  return 0;
}

/* The string value of the first "KEY":"…" at or after `from` in `json`, copied into out. */
static int json_string(const char *json, const char *key, char *out, size_t cap) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":\"", key);
  const char *p = strstr(json, pat);
  if (!p) return -1;
  p += strlen(pat);
  const char *q = strchr(p, '"');
  if (!q || (size_t)(q - p) >= cap) return -1;
  memcpy(out, p, (size_t)(q - p));
  out[q - p] = 0;
  return 0;
}

static long long json_number(const char *json, const char *key, int *ok) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(json, pat);
  *ok = p != NULL;
  return p ? strtoll(p + strlen(pat), NULL, 10) : 0;
}

/* The id of the bill in an answer {"bill":{"id":…}}. */
static int bill_id(const char *json, char *out, size_t cap) {
  const char *b = strstr(json, "\"bill\":{");
  return b ? json_string(b, "id", out, cap) : -1;
}

/* ---- enroll ---- */

static int cmd_enroll(const char *code, int count) {
  conn_t c = {.fd = -1};
  char body[512], token[512];
  for (int i = 0; i < count; i++) {
    snprintf(body, sizeof body, "{\"name\":\"bench till %d\",\"enrollmentCode\":\"%s\"}", i, code);
    if (http(&c, "POST", "/v1/devices", NULL, NULL, body) != 0) die("enroll: socket error");
    if (c.status != 201 || json_string(c.body, "token", token, sizeof token) != 0) {
      fprintf(stderr, "loadgen: enroll: status %d: %s\n", c.status, c.body);
      return 1;
    }
    printf("%s\n", token);
  }
  return 0;
}

/* ---- bills ---- */

static const char *bills_token;
static atomic_int bills_left;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int bills_failed;

static void *bills_worker(void *arg) {
  (void)arg;
  conn_t c = {.fd = -1};
  char id[128];
  while (atomic_fetch_sub(&bills_left, 1) > 0) {
    if (http(&c, "POST", "/v1/bills", bills_token, NULL, NULL) != 0 || c.status != 201 ||
        bill_id(c.body, id, sizeof id) != 0) {
      fprintf(stderr, "loadgen: bills: status %d: %.300s\n", c.status, c.body ? c.body : "");
      atomic_store(&bills_failed, 1);
      break;
    }
    pthread_mutex_lock(&out_lock);
    printf("%s\n", id);
    pthread_mutex_unlock(&out_lock);
  }
  return NULL;
}

static int cmd_bills(const char *token, int count, int conns) {
  bills_token = token;
  atomic_store(&bills_left, count);
  pthread_t t[64];
  if (conns < 1) conns = 1;
  if (conns > 64) conns = 64;
  for (int i = 0; i < conns; i++) pthread_create(&t[i], NULL, bills_worker, NULL);
  for (int i = 0; i < conns; i++) pthread_join(t[i], NULL);
  return atomic_load(&bills_failed);
}

/* ---- cycles ---- */

typedef struct {
  int index;
  const char *token;
  double *cycle_us, *pay_us;
  size_t n, cap;
  long requests, errors_status, errors_socket;
} worker_t;

static double deadline_us;
static atomic_int stop_flag;

static void record(worker_t *w, double cycle, double pay) {
  if (w->n == w->cap) {
    w->cap = w->cap ? w->cap * 2 : 4096;
    w->cycle_us = realloc(w->cycle_us, w->cap * sizeof(double));
    w->pay_us = realloc(w->pay_us, w->cap * sizeof(double));
    if (!w->cycle_us || !w->pay_us) die("out of memory");
  }
  w->cycle_us[w->n] = cycle;
  w->pay_us[w->n] = pay;
  w->n++;
}

/* One request of a cycle: 0 when it answered `expect`, else counts the error. */
static int step(worker_t *w, conn_t *c, const char *method, const char *path, const char *key, const char *body,
                int expect) {
  w->requests++;
  if (http(c, method, path, w->token, key, body) != 0) {
    w->errors_socket++;
    return -1;
  }
  if (c->status != expect) {
    if (w->errors_status < 3) fprintf(stderr, "loadgen: %s %s: status %d: %.300s\n", method, path, c->status, c->body);
    w->errors_status++;
    return -1;
  }
  return 0;
}

static void *cycle_worker(void *arg) {
  worker_t *w = arg;
  conn_t c = {.fd = -1};
  static const char *items[3] = {"latte", "croissant", "espresso"};
  char id[128], path[256], key[128], body[256];
  unsigned long seq = 0;
  while (!atomic_load(&stop_flag)) {
    double start = now_us();
    seq++;
    snprintf(key, sizeof key, "bench-%d-%ld-%lu-open", w->index, (long)getpid(), seq);
    if (step(w, &c, "POST", "/v1/bills", key, NULL, 201) != 0 || bill_id(c.body, id, sizeof id) != 0) continue;
    int failed = 0;
    for (int i = 0; i < 3 && !failed; i++) {
      snprintf(path, sizeof path, "/v1/bills/%s/items", id);
      snprintf(body, sizeof body, "{\"menuItemId\":\"%s\",\"quantity\":1}", items[i]);
      failed = step(w, &c, "POST", path, NULL, body, 200) != 0;
    }
    if (failed) continue;
    snprintf(path, sizeof path, "/v1/bills/%s/checkout", id);
    snprintf(key, sizeof key, "bench-%d-%ld-%lu-checkout", w->index, (long)getpid(), seq);
    if (step(w, &c, "POST", path, key, NULL, 200) != 0) continue;
    const char *bill = strstr(c.body, "\"bill\":{");
    int ok = 0;
    long long total = bill ? json_number(bill, "totalMinor", &ok) : 0;
    if (!ok) { w->errors_status++; continue; }
    snprintf(path, sizeof path, "/v1/bills/%s/pay", id);
    snprintf(key, sizeof key, "bench-%d-%ld-%lu-pay", w->index, (long)getpid(), seq);
    snprintf(body, sizeof body, "{\"method\":\"card\",\"amountMinor\":%lld}", total);
    double pay_start = now_us();
    if (step(w, &c, "POST", path, key, body, 200) != 0) continue;
    double end = now_us();
    if (end <= deadline_us) record(w, end - start, end - pay_start);
  }
  conn_close(&c);
  free(c.buf);
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double percentile(double *v, size_t n, double p) {
  if (n == 0) return 0;
  size_t i = (size_t)(p / 100.0 * (double)n);
  if (i >= n) i = n - 1;
  return v[i];
}

static int cmd_cycles(const char *tokens_file, int conns, double seconds) {
  FILE *f = fopen(tokens_file, "r");
  if (!f) die("cannot open the tokens file");
  worker_t *w = calloc((size_t)conns, sizeof *w);
  char line[512];
  for (int i = 0; i < conns; i++) {
    if (!fgets(line, sizeof line, f)) die("fewer tokens than connections");
    line[strcspn(line, "\r\n")] = 0;
    w[i].index = i;
    w[i].token = strdup(line);
  }
  fclose(f);
  pthread_t *t = calloc((size_t)conns, sizeof *t);
  double start = now_us();
  deadline_us = start + seconds * 1e6;
  for (int i = 0; i < conns; i++) pthread_create(&t[i], NULL, cycle_worker, &w[i]);
  while (now_us() < deadline_us) usleep(10000);
  atomic_store(&stop_flag, 1);
  for (int i = 0; i < conns; i++) pthread_join(t[i], NULL);
  size_t total = 0;
  long requests = 0, es = 0, eso = 0;
  for (int i = 0; i < conns; i++) total += w[i].n, requests += w[i].requests, es += w[i].errors_status, eso += w[i].errors_socket;
  double *cyc = malloc((total + 1) * sizeof(double)), *pay = malloc((total + 1) * sizeof(double));
  size_t k = 0;
  for (int i = 0; i < conns; i++) {
    memcpy(cyc + k, w[i].cycle_us, w[i].n * sizeof(double));
    memcpy(pay + k, w[i].pay_us, w[i].n * sizeof(double));
    k += w[i].n;
  }
  qsort(cyc, total, sizeof(double), cmp_double);
  qsort(pay, total, sizeof(double), cmp_double);
  double duration = seconds * 1e6;
  printf("BENCH_RESULT requests=%ld cycles=%zu duration_us=%.0f rps=%.1f p50_us=%.0f p99_us=%.0f pay_p50_us=%.0f "
         "pay_p99_us=%.0f errors_status=%ld errors_socket=%ld\n",
         requests, total, duration, (double)total / (duration / 1e6), percentile(cyc, total, 50),
         percentile(cyc, total, 99), percentile(pay, total, 50), percentile(pay, total, 99), es, eso);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "enroll") == 0) {
    port = atoi(argv[2]);
    return cmd_enroll(argv[3], atoi(argv[4]));
  }
  if (argc >= 5 && strcmp(argv[1], "bills") == 0) {
    port = atoi(argv[2]);
    return cmd_bills(argv[3], atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 4);
  }
  if (argc >= 6 && strcmp(argv[1], "cycles") == 0) {
    port = atoi(argv[2]);
    return cmd_cycles(argv[3], atoi(argv[4]), atof(argv[5]));
  }
  fprintf(stderr,
          "usage: loadgen enroll PORT CODE COUNT\n"
          "       loadgen bills PORT TOKEN COUNT [CONNECTIONS]\n"
          "       loadgen cycles PORT TOKENS_FILE CONNECTIONS SECONDS\n");
  return 2;
}
