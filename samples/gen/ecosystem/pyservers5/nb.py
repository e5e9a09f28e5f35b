import marimo

app = marimo.App()


@app.cell
def _():
    x = 40 + 2
    return (x,)


if __name__ == "__main__":
    app.run()
