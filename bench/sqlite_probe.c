/* The raw SQLite commit rate on this disk, as the ceiling for routemap's writes:
 *
 *   sqlite_probe DB_PATH normal|full SECONDS
 *
 * Creates DB_PATH afresh with the pragmas routemap's connections use (WAL, foreign keys on, a
 * checkpoint every 10,000 WAL pages, a 5 s busy timeout, synchronous NORMAL or FULL), then for
 * SECONDS commits one transaction after another, each `BEGIN IMMEDIATE`, one small row
 * inserted, `COMMIT`, with prepared statements. Prints one line:
 *   BENCH_RESULT requests=COMMITS duration_us=.. rps=COMMITS/S p50_us=.. p99_us=.. (per commit)
 * Build: gcc -O2 sqlite_probe.c -o sqlite_probe -lsqlite3                                        */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void check(int rc, sqlite3 *db, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "sqlite_probe: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

static void exec(sqlite3 *db, const char *sql) { check(sqlite3_exec(db, sql, NULL, NULL, NULL), db, sql); }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[2], "normal") != 0 && strcmp(argv[2], "full") != 0)) {
    fprintf(stderr, "usage: sqlite_probe DB_PATH normal|full SECONDS\n");
    return 2;
  }
  const char *path = argv[1];
  double seconds = atof(argv[3]);
  char side[4096];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path), unlink(side);
  snprintf(side, sizeof side, "%s-shm", path), unlink(side);

  sqlite3 *db;
  check(sqlite3_open(path, &db), db, "open");
  exec(db, "PRAGMA journal_mode = WAL");
  exec(db, "PRAGMA foreign_keys = ON");
  exec(db, "PRAGMA wal_autocheckpoint = 10000");
  sqlite3_busy_timeout(db, 5000);
  exec(db, strcmp(argv[2], "full") == 0 ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
  exec(db, "CREATE TABLE probe (id TEXT PRIMARY KEY, device_id TEXT NOT NULL, amount_minor INTEGER NOT NULL, "
           "created_at INTEGER NOT NULL)");

  sqlite3_stmt *begin, *insert, *commit;
  check(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, NULL), db, "prepare begin");
  check(sqlite3_prepare_v2(db, "INSERT INTO probe (id, device_id, amount_minor, created_at) VALUES (?, ?, ?, ?)", -1,
                           &insert, NULL),
        db, "prepare insert");
  check(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, NULL), db, "prepare commit");

  size_t cap = 1 << 16, n = 0;
  double *lat = malloc(cap * sizeof(double));
  char id[64];
  double start = now_us(), deadline = start + seconds * 1e6, t = start;
  while (t < deadline) {
    double t0 = now_us();
    check(sqlite3_step(begin), db, "begin");
    sqlite3_reset(begin);
    snprintf(id, sizeof id, "pay_%08zu%016llx", n, (unsigned long long)t0);
    sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(insert, 2, "dev_benchprobe0000000", -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert, 3, 1234);
    sqlite3_bind_int64(insert, 4, (long long)t0);
    check(sqlite3_step(insert), db, "insert");
    sqlite3_reset(insert);
    check(sqlite3_step(commit), db, "commit");
    sqlite3_reset(commit);
    t = now_us();
    if (n == cap) lat = realloc(lat, (cap *= 2) * sizeof(double));
    lat[n++] = t - t0;
  }
  double duration = t - start;
  qsort(lat, n, sizeof(double), cmp_double);
  printf("BENCH_RESULT requests=%zu duration_us=%.0f rps=%.1f p50_us=%.0f p99_us=%.0f\n", n, duration,
         (double)n / (duration / 1e6), n ? lat[n / 2] : 0, n ? lat[(size_t)(n * 0.99)] : 0);
  sqlite3_finalize(begin);
  sqlite3_finalize(insert);
  sqlite3_finalize(commit);
  sqlite3_close(db);
  return 0;
}
