// The holder is done (finished or failed): the lock node goes. Another run's lock is untouched.
MATCH (l:RunLock {name: $lock})
WHERE l.owner = $owner
DELETE l
