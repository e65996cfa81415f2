# call tool in script mode: prints something that is not JSON.
print("this is not json {")
