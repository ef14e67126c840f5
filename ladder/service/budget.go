package service

import (
	"sync"
	"time"
)

// buckets are token buckets, one per key (a client's address): a bucket holds up to
// size tokens, starts full and gains size of them every period. They live in memory:
// a restart forgives every address, which costs an attacker nothing they could not
// get by waiting an hour.
type buckets struct {
	size   float64
	period time.Duration

	mu     sync.Mutex
	m      map[string]*bucket
	pruned time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newBuckets(size int, period time.Duration) *buckets {
	return &buckets{size: float64(size), period: period, m: map[string]*bucket{}, pruned: time.Now()}
}

// wait is how long until key's bucket holds a token: 0 when it holds one now.
func (b *buckets) wait(key string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.waitFor(b.fill(key, time.Now()))
}

// take takes a token of key's bucket and returns 0, or, when it is empty, takes
// nothing and returns how long until it holds a token again.
func (b *buckets) take(key string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := b.fill(key, time.Now())
	wait := b.waitFor(k)
	if wait == 0 {
		k.tokens--
	}
	return wait
}

// spend takes a token whether the bucket holds one or not: a failure that passed
// the check (wait) beside others still counts, as a debt of at most a bucketful.
func (b *buckets) spend(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := b.fill(key, time.Now())
	k.tokens = max(k.tokens-1, -b.size)
}

func (b *buckets) waitFor(k *bucket) time.Duration {
	if k.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - k.tokens) / b.size * float64(b.period))
}

// fill is key's bucket refilled up to now. Once a period, buckets that are full
// again are dropped, so that the map holds only addresses seen lately.
func (b *buckets) fill(key string, now time.Time) *bucket {
	if now.Sub(b.pruned) > b.period {
		for key, k := range b.m {
			if k.tokens+now.Sub(k.at).Seconds()/b.period.Seconds()*b.size >= b.size {
				delete(b.m, key)
			}
		}
		b.pruned = now
	}
	k, ok := b.m[key]
	if !ok {
		k = &bucket{tokens: b.size, at: now}
		b.m[key] = k
	}
	k.tokens = min(b.size, k.tokens+now.Sub(k.at).Seconds()/b.period.Seconds()*b.size)
	k.at = now
	return k
}
