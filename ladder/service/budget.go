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

// take takes a token of key's bucket and returns 0, or, when it is empty, takes
// nothing and returns how long until it holds a token again.
func (b *buckets) take(key string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	k := b.fill(key, now)
	if k.tokens < 1 {
		return time.Duration((1 - k.tokens) / b.size * float64(b.period))
	}
	k.tokens--
	return 0
}

// give gives back a token taken (an attempt that turned out not to count).
func (b *buckets) give(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := b.fill(key, time.Now())
	k.tokens = min(k.tokens+1, b.size)
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
