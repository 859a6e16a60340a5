// Test vectors for marshal::time::GoTime, made by Go's own time package.
//
//	go run tests/go/gen_time_vectors.go gen > tests/go/time_vectors.txt
//	go run tests/go/gen_time_vectors.go check FILE
//
// "gen" prints one line per instant: a name, the Unix seconds, the
// nanoseconds, the zone ("UTC" for Go's UTC location, otherwise the offset
// in seconds east of UTC) and the bytes of time.Time.MarshalBinary in hex,
// or "error" where MarshalBinary refuses the offset.
//
// "check" reads lines in the same format, written by the Rust side, and
// checks that Go's UnmarshalBinary accepts each one as the instant and zone
// the line names, and that MarshalBinary gives the same bytes back. Go's
// decoder reads the version-2 seconds byte as unsigned, so it gets a
// negative offset with seconds wrong; such lines are counted apart, and
// accepted when Go's value is exactly that misreading.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

type vector struct {
	name string
	t    time.Time
}

func fz(name string, offset int) *time.Location { return time.FixedZone(name, offset) }

func vectors() []vector {
	utc := time.UTC
	return []vector{
		{"unix_epoch", time.Unix(0, 0).UTC()},
		{"go_zero_time", time.Time{}},
		{"go_zero_time_plus_1ns", time.Time{}.Add(1)},
		{"one_ns_before_epoch", time.Unix(-1, 999_999_999).UTC()},
		{"before_1970_apollo_11", time.Date(1969, 7, 20, 20, 17, 40, 0, utc)},
		{"nanosecond_precision", time.Date(2009, 2, 13, 23, 31, 30, 123_456_789, utc)},
		{"y2038_i32_overflow", time.Unix(1<<31, 1).UTC()},
		{"year_9999_last_ns", time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, utc)},
		{"year_10000", time.Date(10000, 1, 1, 0, 0, 0, 0, utc)},
		{"year_0", time.Date(0, 3, 1, 12, 0, 0, 0, utc)},
		{"year_minus_1000", time.Date(-1000, 6, 15, 6, 30, 0, 500, utc)},
		{"year_minus_9999", time.Date(-9999, 1, 1, 0, 0, 0, 0, utc)},
		{"unix_secs_max_for_go", time.Unix(math.MaxInt64-62135596800, 999_999_999).UTC()},
		{"unix_secs_min", time.Unix(math.MinInt64, 0).UTC()},
		{"east_tokyo_plus_9", time.Date(2024, 2, 29, 9, 0, 0, 0, fz("JST", 9*3600))},
		{"west_new_york_minus_5", time.Date(2024, 1, 15, 8, 30, 0, 250_000_000, fz("EST", -5*3600))},
		{"half_hour_india_plus_5_30", time.Date(2023, 8, 15, 0, 0, 0, 0, fz("IST", 5*3600+30*60))},
		{"half_hour_newfoundland_minus_3_30", time.Date(2022, 12, 31, 23, 59, 59, 0, fz("NST", -(3*3600+30*60)))},
		{"quarter_hour_nepal_plus_5_45", time.Date(2015, 4, 25, 11, 56, 0, 0, fz("NPT", 5*3600+45*60))},
		{"quarter_hour_chatham_plus_12_45", time.Date(2020, 6, 1, 0, 0, 0, 0, fz("CHAST", 12*3600+45*60))},
		{"lmt_new_york_minus_4_56_02", time.Date(1883, 11, 18, 12, 3, 57, 0, fz("LMT", -(4*3600+56*60+2)))},
		{"lmt_amsterdam_plus_0_19_32", time.Date(1900, 1, 1, 0, 0, 0, 0, fz("LMT", 19*60+32))},
		{"monrovia_minus_0_44_30", time.Date(1970, 1, 1, 0, 0, 0, 0, fz("MMT", -(44*60+30)))},
		{"offset_minus_59_seconds", time.Date(2000, 1, 1, 0, 0, 0, 0, fz("", -59))},
		{"offset_plus_59_seconds", time.Date(2000, 1, 1, 0, 0, 0, 0, fz("", 59))},
		{"offset_zero_not_utc", time.Unix(0, 0).In(fz("GMT", 0))},
		{"offset_plus_1_minute", time.Unix(1_700_000_000, 0).In(fz("", 60))},
		{"offset_minus_2_minutes", time.Unix(1_700_000_000, 0).In(fz("", -120))},
		{"offset_max_minutes", time.Unix(0, 0).In(fz("", 32767*60))},
		{"offset_min_minutes", time.Unix(0, 0).In(fz("", -32768*60))},
		{"offset_max_with_seconds", time.Unix(0, 0).In(fz("", 32767*60+59))},
		{"offset_min_with_seconds", time.Unix(0, 0).In(fz("", -32768*60-59))},
		// Offsets Go's MarshalBinary refuses: a whole-minute part of -1
		// (Go's marker for UTC) or outside int16 minutes.
		{"refused_offset_minus_60", time.Unix(0, 0).In(fz("", -60))},
		{"refused_offset_minus_90", time.Unix(0, 0).In(fz("", -90))},
		{"refused_offset_minus_119", time.Unix(0, 0).In(fz("", -119))},
		{"refused_offset_max_plus_1_minute", time.Unix(0, 0).In(fz("", 32768*60))},
		{"refused_offset_min_minus_1_minute", time.Unix(0, 0).In(fz("", -32769*60))},
	}
}

func zoneOf(t time.Time) string {
	if t.Location() == time.UTC {
		return "UTC"
	}
	_, offset := t.Zone()
	return strconv.Itoa(offset)
}

func gen() {
	fmt.Printf("# time.Time.MarshalBinary, from %s %s/%s running tests/go/gen_time_vectors.go.\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Println("# Regenerate with: go run tests/go/gen_time_vectors.go gen > tests/go/time_vectors.txt")
	fmt.Println("# name unix_secs nanos zone bytes")
	for _, v := range vectors() {
		b, err := v.t.MarshalBinary()
		out := hex.EncodeToString(b)
		if err != nil {
			out = "error"
		}
		fmt.Printf("%s %d %d %s %s\n", v.name, v.t.Unix(), v.t.Nanosecond(), zoneOf(v.t), out)
	}
}

func check(path string) int {
	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return 2
	}
	defer f.Close()
	exact, misread, failed := 0, 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 5 || fields[4] == "error" {
			fmt.Printf("SKIP %s\n", line)
			continue
		}
		name, zone := fields[0], fields[3]
		secs, err1 := strconv.ParseInt(fields[1], 10, 64)
		nanos, err2 := strconv.Atoi(fields[2])
		data, err3 := hex.DecodeString(fields[4])
		if err1 != nil || err2 != nil || err3 != nil {
			fmt.Printf("FAIL %s: unparsable line\n", name)
			failed++
			continue
		}
		var t time.Time
		if err := t.UnmarshalBinary(data); err != nil {
			fmt.Printf("FAIL %s: UnmarshalBinary: %v\n", name, err)
			failed++
			continue
		}
		if t.Unix() != secs || t.Nanosecond() != nanos {
			fmt.Printf("FAIL %s: instant %d.%09d, want %d.%09d\n", name, t.Unix(), t.Nanosecond(), secs, nanos)
			failed++
			continue
		}
		got := zoneOf(t)
		again, err := t.MarshalBinary()
		switch {
		case got == zone && err == nil && bytes.Equal(again, data):
			fmt.Printf("OK   %s\n", name)
			exact++
		case len(data) == 16 && got == strconv.Itoa(misreadOffset(data)):
			fmt.Printf("GO-MISREAD %s: zone %s read by Go as %s (seconds byte %#02x taken as unsigned)\n",
				name, zone, got, data[15])
			misread++
		default:
			fmt.Printf("FAIL %s: zone %s, want %s; re-marshalled %x (err %v), want %x\n",
				name, got, zone, again, err, data)
			failed++
		}
	}
	fmt.Printf("go check: %d accepted exactly, %d accepted with Go's unsigned seconds-byte misreading, %d failed\n",
		exact, misread, failed)
	if failed > 0 || exact+misread == 0 {
		return 1
	}
	return 0
}

// misreadOffset is the offset Go's UnmarshalBinary computes for a version-2
// encoding: minutes*60 plus the seconds byte read as unsigned.
func misreadOffset(data []byte) int {
	return int(int16(data[13])<<8|int16(data[14]))*60 + int(data[15])
}

func main() {
	switch {
	case len(os.Args) == 2 && os.Args[1] == "gen":
		gen()
	case len(os.Args) == 3 && os.Args[1] == "check":
		os.Exit(check(os.Args[2]))
	default:
		fmt.Fprintln(os.Stderr, "usage: gen_time_vectors gen | check FILE")
		os.Exit(2)
	}
}
