package sandbox

import (
	"fmt"
	"os"
	"sync"
)

// UIDRange is a range of user ids that belong to nobody on the machine: bots run as
// them when the arena is root, one id per bot process, so that file permissions
// alone keep a bot away from the arena's files and from every other bot.
type UIDRange struct {
	First, Count int
}

// defaultUIDs is far above the ids of real users and of the usual subordinate-id
// ranges (/etc/subuid), which start at 100000.
var defaultUIDs = UIDRange{First: 1 << 30, Count: 1 << 16}

var uids struct {
	sync.Mutex
	used map[int]bool
	next int
}

// takeUID gives the box a user id of its own from r (its group id is the same
// number) and hands it the scratch directory. Ids are taken in turn from a start that
// depends on the arena's process id, so two arenas on one machine rarely meet.
func (b *Box) takeUID(r UIDRange) error {
	if r.Count <= 0 {
		r = defaultUIDs
	}
	uids.Lock()
	if uids.used == nil {
		uids.used = map[int]bool{}
		uids.next = os.Getpid() * 257
	}
	uid := 0
	for i := 0; i < r.Count; i++ {
		cand := r.First + (uids.next+i)%r.Count
		if cand > 0 && !uids.used[cand] {
			uid, uids.next = cand, uids.next+i+1
			break
		}
	}
	if uid != 0 {
		uids.used[uid] = true
	}
	uids.Unlock()
	if uid == 0 {
		return fmt.Errorf("sandbox: every user id of %d-%d is taken by a running bot", r.First, r.First+r.Count-1)
	}
	b.uid, b.plan.UID = uid, uid
	if err := os.Chown(b.Dir, uid, uid); err != nil {
		return fmt.Errorf("sandbox: scratch directory for user %d: %w", uid, err)
	}
	return nil
}

func releaseUID(uid int) {
	if uid == 0 {
		return
	}
	uids.Lock()
	delete(uids.used, uid)
	uids.Unlock()
}
