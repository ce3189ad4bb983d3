/* KvStore: a small in-memory key-value store (GET/PUT /kv/KEY). Keys hash to buckets; the
 * buckets are striped over STRIPES spin locks, so requests for different keys rarely wait on
 * one another. Values are copied in and out under the stripe's lock. */
#include "httpd.h"

#define STRIPES 16
#define BUCKETS 256
#define ENTRIES_MAX 4096

struct kv_entry {
	struct kv_entry *next;
	uint32_t klen, vlen;
	char key[KV_KEY_MAX];
	char *value;
};

struct kvstore;
struct kvstore_ops {
	long (*get)(struct kvstore *kv, const char *key, size_t klen, char *out, size_t cap);
	int (*put)(struct kvstore *kv, const char *key, size_t klen, const char *val, size_t vlen);
};
struct kvstore {
	const struct kvstore_ops *ops;
	struct spinlock stripes[STRIPES];
	struct kv_entry *buckets[BUCKETS];
	volatile unsigned long count;
};
static struct kvstore store;
static coid_t store_coid;

static unsigned bucket(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h % BUCKETS;
}

static struct kv_entry *find(struct kvstore *kv, unsigned b, const char *key, size_t klen)
{
	for (struct kv_entry *e = kv->buckets[b]; e; e = e->next)
		if (e->klen == klen && !memcmp(e->key, key, klen))
			return e;
	return 0;
}

CO_METHOD(long, kvstore_get_m, struct kvstore *kv, const char *key, size_t klen, char *out,
	  size_t cap)
{
	unsigned b = bucket(key, klen);
	struct spinlock *l = &kv->stripes[b % STRIPES];
	spin_lock(l);
	struct kv_entry *e = find(kv, b, key, klen);
	long n = -1;
	if (e) {
		n = e->vlen < cap ? e->vlen : (long)cap;
		memcpy(out, e->value, (size_t)n);
	}
	spin_unlock(l);
	return n;
}

CO_METHOD(int, kvstore_put_m, struct kvstore *kv, const char *key, size_t klen, const char *val,
	  size_t vlen)
{
	/* The copy is made before taking the lock: malloc may wait for its own. */
	char *copy = malloc(vlen ? vlen : 1);
	if (!copy)
		return -1;
	memcpy(copy, val, vlen);
	unsigned b = bucket(key, klen);
	struct spinlock *l = &kv->stripes[b % STRIPES];
	struct kv_entry *made = 0;
	spin_lock(l);
	struct kv_entry *e = find(kv, b, key, klen);
	char *old = 0;
	int rc;
	if (e) {
		old = e->value;
		e->value = copy, e->vlen = (uint32_t)vlen;
		rc = 0;
	} else if (__atomic_add_fetch(&kv->count, 1, __ATOMIC_RELAXED) > ENTRIES_MAX) {
		__atomic_sub_fetch(&kv->count, 1, __ATOMIC_RELAXED);
		old = copy;
		rc = -1;
	} else {
		spin_unlock(l);   /* the entry is allocated outside the lock, then linked */
		made = malloc(sizeof *made);
		spin_lock(l);
		if (!made) {
			__atomic_sub_fetch(&kv->count, 1, __ATOMIC_RELAXED);
			old = copy;
			rc = -1;
		} else if ((e = find(kv, b, key, klen)) != 0) {   /* someone stored it meanwhile */
			__atomic_sub_fetch(&kv->count, 1, __ATOMIC_RELAXED);
			old = e->value;
			e->value = copy, e->vlen = (uint32_t)vlen;
			rc = 0;
		} else {
			made->klen = (uint32_t)klen, made->vlen = (uint32_t)vlen;
			memcpy(made->key, key, klen);
			made->value = copy;
			made->next = kv->buckets[b];
			kv->buckets[b] = made;
			made = 0;
			rc = 1;
		}
	}
	spin_unlock(l);
	free(old);
	free(made);
	return rc;
}

static const struct kvstore_ops store_ops = { kvstore_get_m, kvstore_put_m };
static const struct co_class store_class = { "KvStore", &store_ops, 2, 0 };

bool kvstore_init(void)
{
	co_register_class(&store_class);
	store.ops = &store_ops;
	for (int i = 0; i < STRIPES; i++)
		if (spin_lock_owner(&store.stripes[i], &store) != 0)
			return false;
	return (store_coid = wl_static_object(&store_class, &store)) != 0;
}

long kvstore_get(const char *key, size_t klen, char *out, size_t cap)
{
	return CO_CALL(struct kvstore, store_coid, get, key, klen, out, cap);
}

int kvstore_put(const char *key, size_t klen, const char *val, size_t vlen)
{
	return CO_CALL(struct kvstore, store_coid, put, key, klen, val, vlen);
}

unsigned long kvstore_count(void)
{
	return __atomic_load_n(&store.count, __ATOMIC_RELAXED);
}
