"""Methods: method calls on an object in a loop (bench/lang/methods/main.go)."""
import sys
import time

N = 2_000_000  # small: 20_000


class Account:
    def __init__(self):
        self.balance = 0
        self.deposits = 0
        self.refused = 0

    def deposit(self, x):
        self.balance += x
        self.deposits += 1

    def withdraw(self, x):
        if x > self.balance:
            self.refused += 1
            return False
        self.balance -= x
        return True

    def rich(self):
        return self.balance > 1000


start = time.perf_counter()
acct = Account()
rich = 0
for i in range(N):
    if i % 3 == 0:
        acct.withdraw(i % 250)
    else:
        acct.deposit(i % 100)
    if acct.rich():
        rich += 1
print(f"bench-seconds {time.perf_counter() - start:.6f}", file=sys.stderr)
print("balance", acct.balance, "deposits", acct.deposits, "refused", acct.refused, "rich", rich)
