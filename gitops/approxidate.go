package gitops

import (
	"math"
	"time"
)

// Dates the way git reads them in a reflog selector (main@{yesterday},
// @{1.hour.ago}, HEAD@{2026-01-01 10:00}): a port of git's date.c,
// approxidate_careful: first the strict parse (parse_date_basic: RFC 2822,
// ISO 8601, Unix time), then the lenient one (approxidate_str: "yesterday",
// "3 days ago", "last friday", "noon", "2026-01-01" at today's time of
// day). Like git, it works in the local time zone and never fails on words
// it does not know; only a text in which nothing was understood is an
// error. The port keeps git's quirks on purpose: the answer must be the
// commit git rev-parse gives.

// revNow is "now" for reflog dates (tests set it, as GIT_TEST_DATE_NOW
// does for git).
var revNow = time.Now

// tmv is C's struct tm: year since 1900, month 0-11, -1 for unset;
// isdst 1 or 0 when known, -1 when mktime is to work it out.
type tmv struct{ year, mon, mday, hour, min, sec, wday, isdst int }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }
func toUpper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

// byteAt returns s[i], or 0 past the end (C's terminating NUL).
func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

// readNum reads decimal digits at s[i:] (strtoul; saturating), returning
// the value and the index after them.
func readNum(s string, i int) (int64, int) {
	var n int64
	for i < len(s) && isDigit(s[i]) {
		if n > (math.MaxInt64-9)/10 {
			n = math.MaxInt64
		} else {
			n = n*10 + int64(s[i]-'0')
		}
		i++
	}
	return n, i
}

func tmFromTime(t time.Time) tmv {
	dst := 0
	if t.IsDST() {
		dst = 1
	}
	return tmv{year: t.Year() - 1900, mon: int(t.Month()) - 1, mday: t.Day(), hour: t.Hour(), min: t.Minute(), sec: t.Second(), wday: int(t.Weekday()), isdst: dst}
}

func localtime(n int64) tmv { return tmFromTime(time.Unix(n, 0).In(time.Local)) }
func gmtime(n int64) tmv    { return tmFromTime(time.Unix(n, 0).UTC()) }

// mktime is C's mktime in the local zone. Like glibc's, it reads the wall
// time with the offset tm.isdst names when that is known, even on a date
// where the other one is in force: git's "2026-01-01" asked in summer is
// read with summer time's offset.
func mktime(tm *tmv) int64 {
	t := time.Date(tm.year+1900, time.Month(tm.mon+1), tm.mday, tm.hour, tm.min, tm.sec, 0, time.Local)
	if tm.isdst < 0 || (tm.isdst == 1) == t.IsDST() {
		return t.Unix()
	}
	// The nearest time with the other offset, as glibc looks for it: in
	// weekly steps, earlier first, up to about 17 years away.
	_, off := t.Zone()
	const stride, bound = 601200, 536454000
	for delta := int64(stride); delta < bound; delta += stride {
		for _, d := range []int64{-delta, delta} {
			if u := time.Unix(t.Unix()+d, 0).In(time.Local); u.IsDST() == (tm.isdst == 1) {
				_, o := u.Zone()
				return t.Unix() + int64(off-o)
			}
		}
	}
	return t.Unix()
}

// tmToTime is tm_to_time_t: tm read as UTC, -1 when a field is unset.
func tmToTime(tm *tmv) int64 {
	mdays := [...]int64{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
	year, month, day := int64(tm.year-70), tm.mon, int64(tm.mday)
	if year < 0 || year > 129 || month < 0 || month > 11 {
		return -1
	}
	if month < 2 || (year+2)%4 != 0 {
		day--
	}
	if tm.hour < 0 || tm.min < 0 || tm.sec < 0 {
		return -1
	}
	return (year*365+(year+1)/4+mdays[month]+day)*86400 + int64(tm.hour)*3600 + int64(tm.min)*60 + int64(tm.sec)
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
var weekdayNames = []string{"Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays"}

var timezoneNames = []struct {
	name        string
	offset, dst int
}{
	{"IDLW", -12, 0}, {"NT", -11, 0}, {"CAT", -10, 0}, {"HST", -10, 0}, {"HDT", -10, 1}, {"YST", -9, 0}, {"YDT", -9, 1},
	{"PST", -8, 0}, {"PDT", -8, 1}, {"MST", -7, 0}, {"MDT", -7, 1}, {"CST", -6, 0}, {"CDT", -6, 1}, {"EST", -5, 0},
	{"EDT", -5, 1}, {"AST", -3, 0}, {"ADT", -3, 1}, {"WAT", -1, 0}, {"GMT", 0, 0}, {"UTC", 0, 0}, {"Z", 0, 0},
	{"WET", 0, 0}, {"BST", 0, 1}, {"CET", 1, 0}, {"MET", 1, 0}, {"MEWT", 1, 0}, {"MEST", 1, 1}, {"CEST", 1, 1},
	{"MESZ", 1, 1}, {"FWT", 1, 0}, {"FST", 1, 1}, {"EET", 2, 0}, {"EEST", 2, 1}, {"WAST", 7, 0}, {"WADT", 7, 1},
	{"CCT", 8, 0}, {"JST", 9, 0}, {"EAST", 10, 0}, {"EADT", 10, 1}, {"GST", 10, 0}, {"NZT", 12, 0}, {"NZST", 12, 0},
	{"NZDT", 12, 1}, {"IDLE", 12, 0},
}

// matchString is how many leading characters of date match str (case
// aside) up to a non-alphanumeric character; 0 when an alphanumeric one
// differs.
func matchString(date, str string) int {
	i := 0
	for ; i < len(date); i++ {
		if i < len(str) && toUpper(date[i]) == toUpper(str[i]) {
			continue
		}
		if !isAlnum(date[i]) {
			break
		}
		return 0
	}
	return i
}

func skipAlpha(date string) int {
	i := 1
	for isAlpha(byteAt(date, i)) {
		i++
	}
	return i
}

// matchAlpha reads a month, weekday or time zone name (strict parse).
func matchAlpha(date string, tm *tmv, offset *int) int {
	for i, m := range monthNames {
		if n := matchString(date, m); n >= 3 {
			tm.mon = i
			return n
		}
	}
	for i, d := range weekdayNames {
		if n := matchString(date, d); n >= 3 {
			tm.wday = i
			return n
		}
	}
	for _, z := range timezoneNames {
		if n := matchString(date, z.name); n >= 3 || n == len(z.name) {
			if *offset == -1 {
				*offset = 60 * (z.offset + z.dst)
			}
			return n
		}
	}
	if matchString(date, "PM") == 2 {
		tm.hour = tm.hour%12 + 12
		return 2
	}
	if matchString(date, "AM") == 2 {
		tm.hour = tm.hour % 12
		return 2
	}
	return skipAlpha(date)
}

func setDate(year, month, day int, nowTm *tmv, now int64, tm *tmv) int {
	if month <= 0 || month >= 13 || day <= 0 || day >= 32 {
		return -1
	}
	check := *tm
	r := tm
	if nowTm != nil {
		r = &check
	}
	r.mon, r.mday = month-1, day
	switch {
	case year == -1:
		if nowTm == nil {
			return 1
		}
		r.year = nowTm.year
	case year >= 1970 && year < 2100:
		r.year = year - 1900
	case year > 70 && year < 100:
		r.year = year
	case year < 38:
		r.year = year + 100
	default:
		return -1
	}
	if nowTm == nil {
		return 0
	}
	// Not more than ten days into the future.
	if specified := tmToTime(r); specified != -1 && now+10*86400 < specified {
		return -1
	}
	tm.mon, tm.mday = r.mon, r.mday
	if year != -1 {
		tm.year = r.year
	}
	return 0
}

func setTime(hour, minute, second int64, tm *tmv) int {
	if hour >= 0 && hour <= 24 && minute >= 0 && minute < 60 && second >= 0 && second <= 60 {
		tm.hour, tm.min, tm.sec = int(hour), int(minute), int(second)
		return 0
	}
	return -1
}

func dateKnown(tm *tmv) bool { return tm.year != -1 && tm.mon != -1 && tm.mday != -1 }

// matchMultiNumber reads num<c>num2[<c>num3] (a time or a date) where
// date[end] is c; it returns the length read, 0 when it is neither.
func matchMultiNumber(num int64, c byte, date string, end int, tm *tmv, now int64) int {
	num2, e := readNum(date, end+1)
	num3 := int64(-1)
	if byteAt(date, e) == c && isDigit(byteAt(date, e+1)) {
		num3, e = readNum(date, e+1)
	}
	switch c {
	case ':':
		if num3 < 0 {
			num3 = 0
		}
		if setTime(num, num2, num3, tm) != 0 {
			return 0
		}
		if byteAt(date, e) == '.' && isDigit(byteAt(date, e+1)) && dateKnown(tm) {
			_, e = readNum(date, e+1)
		}
	default: // '-', '/', '.'
		nowTm := gmtime(now)
		n1, n2, n3 := int(num), int(num2), int(num3)
		switch {
		case num > 70 && setDate(n1, n2, n3, nil, now, tm) == 0:
		case num > 70 && setDate(n1, n3, n2, nil, now, tm) == 0:
		case c != '.' && setDate(n3, n1, n2, &nowTm, now, tm) == 0:
		case setDate(n3, n2, n1, &nowTm, now, tm) == 0:
		case c == '.' && setDate(n3, n1, n2, &nowTm, now, tm) == 0:
		default:
			return 0
		}
	}
	return e
}

func noDate(tm *tmv) bool {
	return tm.year < 0 && tm.mon < 0 && tm.mday < 0 && tm.hour < 0 && tm.min < 0 && tm.sec < 0
}

// matchDigit reads a number in the strict parse: a Unix time, a date, a
// time, a year, a day or month, a numeric time zone.
func matchDigit(date string, tm *tmv, offset *int, gmt *bool, now int64) int {
	num, end := readNum(date, 0)
	if num >= 100000000 && noDate(tm) {
		*tm = gmtime(num)
		*gmt = true
		return end
	}
	switch c := byteAt(date, end); c {
	case ':', '.', '/', '-':
		if isDigit(byteAt(date, end+1)) {
			if m := matchMultiNumber(num, c, date, end, tm, now); m != 0 {
				return m
			}
		}
	}
	n := end
	if n == 8 || n == 6 {
		n1, n2, n3 := num/10000, (num%10000)/100, num%100
		if n == 8 {
			setDate(int(n1), int(n2), int(n3), nil, now, tm)
		} else if setTime(n1, n2, n3, tm) == 0 && byteAt(date, end) == '.' && isDigit(byteAt(date, end+1)) {
			_, end = readNum(date, end+1)
		}
		return end
	}
	if n == 4 {
		if num <= 1400 && *offset == -1 {
			*offset = int(num/100)*60 + int(num%100)
		} else if num > 1900 && num < 2100 {
			tm.year = int(num) - 1900
		}
		return n
	}
	if n > 2 {
		return n
	}
	if num > 0 && num < 32 && tm.mday < 0 {
		tm.mday = int(num)
		return n
	}
	if n == 2 && tm.year < 0 {
		if num < 10 && tm.mday >= 0 {
			tm.year = int(num) + 100
			return n
		}
		if num >= 70 {
			tm.year = int(num)
			return n
		}
	}
	if num > 0 && num < 13 && tm.mon < 0 {
		tm.mon = int(num) - 1
	}
	return n
}

// matchTZ reads +hhmm, -hh or +hh:mm.
func matchTZ(date string, offset *int) int {
	hour, end := readNum(date, 1)
	n := end - 1
	min := int64(0)
	switch {
	case n == 4:
		min, hour = hour%100, hour/100
	case n != 2:
		min = 99
	case byteAt(date, end) == ':':
		min, end = readNum(date, end+1)
		if end-1 != 5 {
			min = 99
		}
	}
	if min < 60 && hour < 24 {
		off := int(hour*60 + min)
		if date[0] == '-' {
			off = -off
		}
		*offset = off
	}
	return end
}

// matchHeaderDate reads "<unix> <+|-hhmm>" (after an "@"), as a commit
// header holds it.
func matchHeaderDate(date string) (int64, bool) {
	if !isDigit(byteAt(date, 0)) {
		return 0, false
	}
	stamp, end := readNum(date, 0)
	if byteAt(date, end) != ' ' || (byteAt(date, end+1) != '+' && byteAt(date, end+1) != '-') {
		return 0, false
	}
	_, e := readNum(date, end+2)
	if e != end+6 || (e != len(date) && date[e] != '\n') {
		return 0, false
	}
	return stamp, true
}

// parseDateBasic is git's strict parse; ok false when the text is not a
// whole date and time.
func parseDateBasic(date string, now int64) (int64, bool) {
	if len(date) > 0 && date[0] == '@' {
		if ts, ok := matchHeaderDate(date[1:]); ok {
			return ts, true
		}
	}
	tm := tmv{-1, -1, -1, -1, -1, -1, 0, -1}
	offset, gmt := -1, false
	for i := 0; i < len(date) && date[i] != '\n'; {
		c, m := date[i], 0
		switch {
		case isAlpha(c):
			m = matchAlpha(date[i:], &tm, &offset)
		case isDigit(c):
			m = matchDigit(date[i:], &tm, &offset, &gmt, now)
		case (c == '-' || c == '+') && isDigit(byteAt(date, i+1)):
			m = matchTZ(date[i:], &offset)
		}
		if m == 0 {
			m = 1
		}
		i += m
	}
	ts := tmToTime(&tm)
	if ts == -1 {
		return 0, false
	}
	if offset == -1 {
		tm.isdst = -1 // matchDigit's gmtime may have set it
		local := mktime(&tm)
		if ts > local {
			offset = int((ts - local) / 60)
		} else {
			offset = -int((local - ts) / 60)
		}
	}
	if !gmt {
		ts -= int64(offset) * 60
	}
	return ts, true
}

// updateTm fills the unset date fields from now, then moves tm sec
// seconds back (a relative date: "2 days ago").
func updateTm(tm, now *tmv, sec int64) int64 {
	if tm.mday < 0 {
		tm.mday = now.mday
	}
	if tm.mon < 0 {
		tm.mon = now.mon
	}
	if tm.year < 0 {
		tm.year = now.year
		if tm.mon > now.mon {
			tm.year--
		}
	}
	n := mktime(tm) - sec
	*tm = localtime(n)
	return n
}

// pendingNumber places a number read before: a day, a month or a year.
func pendingNumber(tm *tmv, num *int) {
	n := *num
	if n == 0 {
		return
	}
	*num = 0
	switch {
	case tm.mday < 0 && n < 32:
		tm.mday = n
	case tm.mon < 0 && n < 13:
		tm.mon = n - 1
	case tm.year < 0:
		switch {
		case n > 1969 && n < 2100:
			tm.year = n - 1900
		case n > 69 && n < 100:
			tm.year = n
		case n < 38:
			tm.year = 100 + n
		}
	}
}

func dateTime(tm, now *tmv, hour int) {
	if tm.hour < hour {
		updateTm(tm, now, 86400)
	}
	tm.hour, tm.min, tm.sec = hour, 0, 0
}

func dateAMPM(tm *tmv, num *int, pm bool) {
	hour, n := tm.hour, *num
	*num = 0
	if n != 0 {
		hour = n
		tm.min, tm.sec = 0, 0
	}
	tm.hour = hour % 12
	if pm {
		tm.hour += 12
	}
}

var dateSpecials = []struct {
	name string
	fn   func(tm, now *tmv, num *int)
}{
	{"yesterday", func(tm, now *tmv, num *int) { *num = 0; updateTm(tm, now, 86400) }},
	{"noon", func(tm, now *tmv, num *int) { pendingNumber(tm, num); dateTime(tm, now, 12) }},
	{"midnight", func(tm, now *tmv, num *int) { pendingNumber(tm, num); dateTime(tm, now, 0) }},
	{"tea", func(tm, now *tmv, num *int) { pendingNumber(tm, num); dateTime(tm, now, 17) }},
	{"PM", func(tm, now *tmv, num *int) { dateAMPM(tm, num, true) }},
	{"AM", func(tm, now *tmv, num *int) { dateAMPM(tm, num, false) }},
	{"never", func(tm, now *tmv, num *int) { *tm = localtime(0); *num = 0 }},
	{"now", func(tm, now *tmv, num *int) { *num = 0; updateTm(tm, now, 0) }},
}

var numberNames = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

var dateUnits = []struct {
	name string
	secs int64
}{{"seconds", 1}, {"minutes", 60}, {"hours", 3600}, {"days", 86400}, {"weeks", 7 * 86400}}

// approxAlpha reads the word at date[pos:] in the lenient parse and
// returns the index after it.
func approxAlpha(date string, pos int, tm, now *tmv, num *int, touched *bool) int {
	end := pos + 1
	for isAlpha(byteAt(date, end)) {
		end++
	}
	w := date[pos:]
	for i, m := range monthNames {
		if matchString(w, m) >= 3 {
			tm.mon = i
			*touched = true
			return end
		}
	}
	for _, s := range dateSpecials {
		if matchString(w, s.name) == len(s.name) {
			s.fn(tm, now, num)
			*touched = true
			return end
		}
	}
	if *num == 0 {
		for i := 1; i < len(numberNames); i++ {
			if matchString(w, numberNames[i]) == len(numberNames[i]) {
				*num = i
				*touched = true
				return end
			}
		}
		if matchString(w, "last") == 4 {
			*num = 1
			*touched = true
		}
		return end
	}
	for _, u := range dateUnits {
		if matchString(w, u.name) >= len(u.name)-1 {
			updateTm(tm, now, u.secs*int64(*num))
			*num = 0
			*touched = true
			return end
		}
	}
	for i, d := range weekdayNames {
		if matchString(w, d) >= 3 {
			n := *num - 1
			*num = 0
			diff := tm.wday - i
			if diff <= 0 {
				n++
			}
			diff += 7 * n
			updateTm(tm, now, int64(diff)*86400)
			*touched = true
			return end
		}
	}
	if matchString(w, "months") >= 5 {
		updateTm(tm, now, 0)
		n := tm.mon - *num
		*num = 0
		for n < 0 {
			n += 12
			tm.year--
		}
		tm.mon = n
		*touched = true
		return end
	}
	if matchString(w, "years") >= 4 {
		updateTm(tm, now, 0)
		tm.year -= *num
		*num = 0
		*touched = true
	}
	return end
}

// approxDigit reads a number in the lenient parse.
func approxDigit(date string, pos int, tm *tmv, num *int, now int64) int {
	n, end := readNum(date, pos)
	switch c := byteAt(date, end); c {
	case ':', '.', '/', '-':
		if isDigit(byteAt(date, end+1)) {
			if m := matchMultiNumber(n, c, date[pos:], end-pos, tm, now); m != 0 {
				return pos + m
			}
		}
	}
	// Zero padding only for small numbers ("Dec 02", never "Dec 0002").
	if date[pos] != '0' || end-pos <= 2 {
		*num = int(n)
	}
	return end
}

// approxidate is git's approxidate_careful: the Unix time a reflog
// selector's date names, ok false when nothing in it was understood.
func approxidate(date string, now time.Time) (int64, bool) {
	sec := now.Unix()
	if ts, ok := parseDateBasic(date, sec); ok {
		return ts, true
	}
	tm := localtime(sec)
	nowTm := tm
	tm.year, tm.mon, tm.mday = -1, -1, -1
	num, touched := 0, false
	for i := 0; i < len(date); {
		c := date[i]
		switch {
		case isDigit(c):
			pendingNumber(&tm, &num)
			i = approxDigit(date, i, &tm, &num, sec)
			touched = true
		case isAlpha(c):
			i = approxAlpha(date, i, &tm, &nowTm, &num, &touched)
		default:
			i++
		}
	}
	pendingNumber(&tm, &num)
	return updateTm(&tm, &nowTm, 0), touched
}
