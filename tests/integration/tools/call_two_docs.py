# call tool in script mode: prints two JSON documents (one is the contract).
print('{"a": 1}')
print('{"b": 2}')
