/* FileCache: the files of the RAM disk's www/ (tools/mkinitrd stores them as www/NAME), each
 * read once with file_read and served from memory after; names that do not exist are
 * remembered too (up to NEGATIVE_MAX), so a flood of 404s does not read the RAM disk. Files
 * made in memory (the SURGE set, surge.c) are added at start-up and served the same way. */
#include "httpd.h"

#define BUCKETS 4096     /* the SURGE set has thousands of names (a few to a chain) */
#define NAME_MAX 44          /* "www/" + name fits the RAM disk's 48-byte names */
#define NEGATIVE_MAX 256

struct entry {
	struct entry *next;
	char name[NAME_MAX + 1];
	bool exists;
	struct cached_file file;
};

struct filecache;
struct filecache_ops {
	const struct cached_file *(*get)(struct filecache *fc, const char *name, size_t len);
	bool (*add)(struct filecache *fc, const char *name, size_t len, const char *data,
		    size_t data_len, const char *type);
};
struct filecache {
	const struct filecache_ops *ops;
	struct mutex lock;
	struct entry *buckets[BUCKETS];
	unsigned files, negatives;
	uint64_t hits, misses;
};
static struct filecache cache;
static coid_t cache_coid;

static unsigned hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h % BUCKETS;
}

static const char *type_of(const char *name, size_t n)
{
	static const struct { const char *ext, *type; } types[] = {
		{ ".html", "text/html; charset=utf-8" }, { ".css", "text/css" },
		{ ".txt", "text/plain; charset=utf-8" }, { ".js", "text/javascript" },
		{ ".json", "application/json" }, { ".svg", "image/svg+xml" }, { ".png", "image/png" },
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		size_t k = strlen(types[i].ext);
		if (n > k && !memcmp(name + n - k, types[i].ext, k))
			return types[i].type;
	}
	return "application/octet-stream";
}

/* Reads www/NAME from the RAM disk into memory; false if there is no such file. */
static bool load(const char *name, size_t n, struct cached_file *f)
{
	char path[4 + NAME_MAX + 1];
	memcpy(path, "www/", 4);
	memcpy(path + 4, name, n);
	path[4 + n] = 0;
	size_t cap = 4096, len = 0;
	char *data = malloc(cap);
	while (data) {
		long got = file_read(path, len, data + len, cap - len);
		if (got < 0) {   /* no such file */
			free(data);
			return false;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len == cap) {
			char *bigger = malloc(cap * 2);
			if (bigger)
				memcpy(bigger, data, len);
			free(data);
			data = bigger, cap *= 2;
		}
	}
	if (!data)
		return false;
	f->data = data, f->len = len, f->type = type_of(name, n);
	return true;
}

static struct entry *find(struct filecache *fc, unsigned b, const char *name, size_t n)
{
	for (struct entry *e = fc->buckets[b]; e; e = e->next)
		if (same(name, n, e->name))
			return e;
	return 0;
}

CO_METHOD(const struct cached_file *, filecache_get_m, struct filecache *fc, const char *name,
	  size_t n)
{
	if (n == 0 || n > NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)   /* no way out of www/, no hidden or odd names */
		if (name[i] <= ' ' || name[i] == '%' || name[i] == '\\' ||
		    (name[i] == '.' && (i == 0 || name[i - 1] == '/')))
			return 0;
	unsigned b = hash(name, n);
	mutex_lock(&fc->lock);
	struct entry *e = find(fc, b, name, n);
	if (e)
		fc->hits++;
	mutex_unlock(&fc->lock);
	if (e)
		return e->exists ? &e->file : 0;
	/* A miss: read outside the lock; the first of two racing readers wins. */
	struct entry *made = malloc(sizeof *made);
	if (!made)
		return 0;
	memset(made, 0, sizeof *made);
	memcpy(made->name, name, n);
	made->exists = load(name, n, &made->file);
	mutex_lock(&fc->lock);
	fc->misses++;
	e = find(fc, b, name, n);
	if (!e && (made->exists || fc->negatives < NEGATIVE_MAX)) {
		made->next = fc->buckets[b];
		fc->buckets[b] = made;
		made->exists ? fc->files++ : fc->negatives++;
		e = made, made = 0;
	}
	mutex_unlock(&fc->lock);
	if (made) {   /* another reader's entry won, or too many missing names to remember */
		if (made->exists)
			free((void *)made->file.data);
		free(made);
	}
	return e && e->exists ? &e->file : 0;
}

CO_METHOD(bool, filecache_add_m, struct filecache *fc, const char *name, size_t n, const char *data,
	  size_t data_len, const char *type)
{
	if (n == 0 || n > NAME_MAX)
		return false;
	struct entry *e = malloc(sizeof *e);
	if (!e)
		return false;
	memset(e, 0, sizeof *e);
	memcpy(e->name, name, n);
	e->exists = true;
	e->file.data = data, e->file.len = data_len, e->file.type = type;
	unsigned b = hash(name, n);
	mutex_lock(&fc->lock);
	bool fresh = !find(fc, b, name, n);
	if (fresh) {
		e->next = fc->buckets[b];
		fc->buckets[b] = e;
		fc->files++;
	}
	mutex_unlock(&fc->lock);
	if (!fresh)
		free(e);
	return fresh;
}

static const struct filecache_ops cache_ops = { filecache_get_m, filecache_add_m };
static const struct co_class cache_class = { "FileCache", &cache_ops, 2, 0 };

bool filecache_init(void)
{
	co_register_class(&cache_class);
	cache.ops = &cache_ops;
	return (cache_coid = wl_static_object(&cache_class, &cache)) != 0 &&
	       mutex_monitor(&cache.lock, &cache) == 0;
}

const struct cached_file *filecache_get(const char *name, size_t len)
{
	return CO_CALL(struct filecache, cache_coid, get, name, len);
}

bool filecache_add(const char *name, size_t len, const char *data, size_t data_len,
		   const char *type)
{
	return CO_CALL(struct filecache, cache_coid, add, name, len, data, data_len, type);
}
