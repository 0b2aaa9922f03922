// Methods calls the methods of a struct in a loop: pointer and value
// receivers, fields read and written.
package main

import (
	"fmt"
	"os"
	"time"
)

const n = 2_000_000 // small: 20_000

type account struct {
	balance  int
	deposits int
	refused  int
}

func (a *account) deposit(x int) {
	a.balance += x
	a.deposits++
}

func (a *account) withdraw(x int) bool {
	if x > a.balance {
		a.refused++
		return false
	}
	a.balance -= x
	return true
}

func (a account) rich() bool { return a.balance > 1000 }

func main() {
	start := time.Now()
	acct := &account{}
	rich := 0
	for i := 0; i < n; i++ {
		if i%3 == 0 {
			acct.withdraw(i % 250)
		} else {
			acct.deposit(i % 100)
		}
		if acct.rich() {
			rich++
		}
	}
	fmt.Fprintf(os.Stderr, "bench-seconds %.6f\n", time.Since(start).Seconds())
	fmt.Println("balance", acct.balance, "deposits", acct.deposits, "refused", acct.refused, "rich", rich)
}
