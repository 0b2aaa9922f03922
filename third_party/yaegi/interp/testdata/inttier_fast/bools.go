package main

import (
	"fmt"
	"sort"
)

type item struct {
	name string
	done bool
	pri  int
}

func main() {
	items := []item{{"a", true, 2}, {"b", false, 1}, {"c", true, 1}, {"d", false, 3}, {"e", false, 1}}
	sort.SliceStable(items, func(i, j int) bool { return !items[i].done && items[j].done })
	fmt.Println(items)
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].done != items[j].done {
			return items[j].done
		}
		return items[i].pri < items[j].pri
	})
	fmt.Println(items)
	flags := []bool{true, false, true, false, false}
	sort.Slice(flags, func(i, j int) bool { return flags[i] != flags[j] && flags[j] })
	fmt.Println(flags)
	asc := true
	nums := []int64{5, -2, 9, 0}
	sort.Slice(nums, func(i, j int) bool {
		if asc {
			return nums[i] < nums[j]
		}
		return nums[i] > nums[j]
	})
	fmt.Println(nums)
	asc = false
	sort.Slice(nums, func(i, j int) bool {
		if asc {
			return nums[i] < nums[j]
		}
		return nums[i] > nums[j]
	})
	fmt.Println(nums)
	fmt.Println(sort.Search(len(nums), func(i int) bool { return nums[i]<<1 <= 0 || nums[i]^3 == 10 }))
}
