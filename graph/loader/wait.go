package loader

import "time"

// Wait is how long the request's loaders gather keys before a batch runs. Loaders made for a part
// of the request (the page bodies of one page tree) wait as long.
func (l *Loaders) Wait() time.Duration { return l.wait }
