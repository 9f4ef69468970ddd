package shell

// FileID names one state of a file's content for a cache of something
// derived from it (a line index): the file (device, inode) and its size,
// modification and status-change times, from one fstat of the handle
// being read. A write changes the size or a time; a rename over it changes
// the inode; ctime cannot be set back by anyone. The zero FileID is never
// equal to a file's: systems without ctime give it, and nothing is cached.
type FileID struct {
	Dev, Ino     uint64
	Size         int64
	MTime, CTime int64 // Unix nanoseconds
}

// ReadFileUnless is ReadFile, except that when the opened file's FileID
// is known (a cache holds what was derived from that content) it reads
// nothing and returns same true. The path is looked up and opened either
// way: the id comes from the handle, so it is the file at abs now.
// dirs (nil: none) holds the folders of a batch of such reads.
func (j *Jail) ReadFileUnless(dirs *Folders, abs string, limit int64, known FileID) (res ReadResult, id FileID, same bool, err error) {
	f, fi, t, err := j.openRegularIn(abs, dirs)
	if err != nil {
		return ReadResult{}, FileID{}, false, err
	}
	defer f.Close()
	id = fileIDOf(fi)
	if id != (FileID{}) && id == known {
		return ReadResult{Info: infoOf(fi)}, id, true, nil
	}
	res, err = j.readOpened(f, fi, t, limit)
	return res, id, false, err
}
