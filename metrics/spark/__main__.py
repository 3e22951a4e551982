"""``python -m metrics.spark QRELS RUN ...`` = ``ranklab evaluate --engine spark QRELS RUN ...``.

A file spark-submit can run as it is (absolute imports), with Ranklab on the executors:

    zip -qr ranklab.zip metrics
    spark-submit --master spark://host:7077 --py-files ranklab.zip metrics/spark/__main__.py \\
        hdfs:///trec/qrels.txt hdfs:///runs/big.parquet -m "AP nDCG@10" --partitions 2000
"""

from metrics.cli import console

if __name__ == "__main__":
    import sys

    sys.argv[1:1] = ["evaluate", "--engine", "spark"]
    console()
